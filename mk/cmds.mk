# Every command the tests and scripts run is one `make deps` (or lab-deps,
# check-deps) installs, the base system has, or the project builds
# (mk/cmds-in-deps.sh; tests/deps.sh, and make check-lab's fresh root).
ALL_PKGS = $(DEB_PKGS) $(LAB_PKGS) $(CHECK_PKGS)

cmds-in-deps:
	$(Q)./mk/cmds-in-deps.sh $(ALL_PKGS)

# deps-list: the packages of make deps, lab-deps and check-deps, one a line
deps-list:
	@printf '%s\n' $(ALL_PKGS)

.PHONY: cmds-in-deps deps-list
