# Man pages, bash completion, the Debian package.
#   make man         the man pages, from docs/man/*.scd, into $(BUILD)/man/
#   make install     (Makefile) also installs them and the completion
#   make deb         ../iostrat_VERSION_ARCH.deb with dpkg-buildpackage,
#                    copied to $(BUILD)/deb/, then lintian on it
# mk files are included before `all:`; keep `make` building, not installing.
.DEFAULT_GOAL := all

MAN_SRCS  := $(wildcard docs/man/*.scd)
MAN_PAGES := $(MAN_SRCS:docs/man/%.scd=$(BUILD)/man/%)
COMPDIR   ?= $(PREFIX)/share/bash-completion/completions

man: $(MAN_PAGES)

$(BUILD)/man/%: docs/man/%.scd mk/man.sh
	$(call say,SCDOC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)./mk/man.sh $< $@

# rules without recipes: prerequisites of the Makefile's install/uninstall
install: install-man install-completion
uninstall: uninstall-man-completion

install-man: man
	$(Q)for p in $(MAN_PAGES); do \
		install -D -m 0644 $$p $(DESTDIR)$(PREFIX)/share/man/man$${p##*.}/$${p##*/} || exit; \
	done

install-completion:
	install -D -m 0644 completion/iostrat.bash $(DESTDIR)$(COMPDIR)/iostrat

uninstall-man-completion:
	rm -f $(patsubst docs/man/%.scd,$(DESTDIR)$(PREFIX)/share/man/man1/%,$(filter %.1.scd,$(MAN_SRCS)))
	rm -f $(patsubst docs/man/%.scd,$(DESTDIR)$(PREFIX)/share/man/man5/%,$(filter %.5.scd,$(MAN_SRCS)))
	rm -f $(DESTDIR)$(COMPDIR)/iostrat

# make lint also lints the man pages: mandoc -T lint prints nothing
lint: man-lint
man-lint: man
	$(call say,MANLINT,$(BUILD)/man)
	$(Q)out=$$(mandoc -T lint $(MAN_PAGES) 2>&1); [ -z "$$out" ] || { echo "$$out"; exit 1; }

# The package: standard tooling (debian/, dpkg-buildpackage, debhelper),
# built from a clean export of HEAD plus the work tree's changes, so the
# checkout's build/ and results are not in the source package.
DEB_OUT := $(BUILD)/deb
deb:
	$(Q)./mk/deb.sh $(DEB_OUT)

.PHONY: man man-lint install-man install-completion uninstall-man-completion deb
