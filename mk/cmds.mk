# Every command the tests and scripts run is one `make deps` (or lab-deps,
# check-deps) installs, the base system has, or the project builds
# (mk/cmds-in-deps.sh; tests/deps.sh, and make check-lab's fresh root).
ALL_PKGS = $(DEB_PKGS) $(LAB_PKGS) $(CHECK_PKGS)

# REQUIRE=FILE: also each command of FILE must be installed here
# (mk/cmds-in-deps.sh --require; lab/fresh-root.sh)
cmds-in-deps:
	$(Q)./mk/cmds-in-deps.sh $(if $(REQUIRE),--require $(REQUIRE)) $(ALL_PKGS)

# deps-list: the packages make deps installs, one a line
deps-list:
	@printf '%s\n' $(DEB_PKGS)

# check-tool-pkgs: what make deps adds to make run's packages (lab/fresh-root.sh)
check-tool-pkgs:
	@printf '%s\n' $(CHECK_TOOL_PKGS)

.PHONY: cmds-in-deps deps-list check-tool-pkgs
