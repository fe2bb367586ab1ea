# The reboot queue's systemd unit: `make install-queue` installs iostrat
# and the unit, and enables it (only when installing into / itself, and
# never starts it: starting would run the queue and reboot now).
# `make uninstall-queue` disables and removes the unit; the queue state and
# results under /var/lib/iostrat are kept.
# mk files are included before `all:`; keep `make` building, not installing.
.DEFAULT_GOAL := all

UNITDIR ?= /etc/systemd/system
QUEUE_UNIT := iostrat-queue.service

install-queue: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iostrat
	mkdir -p $(DESTDIR)$(UNITDIR) $(DESTDIR)/var/lib/iostrat
	sed 's|/usr/local/bin/iostrat|$(PREFIX)/bin/iostrat|' systemd/$(QUEUE_UNIT) \
		>$(DESTDIR)$(UNITDIR)/$(QUEUE_UNIT)
	chmod 0644 $(DESTDIR)$(UNITDIR)/$(QUEUE_UNIT)
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl daemon-reload && systemctl enable $(QUEUE_UNIT) && \
		echo "enabled $(QUEUE_UNIT): it runs at the next boot (iostrat queue pause stops it)"; \
	else \
		echo "installed $(QUEUE_UNIT) (not enabled: DESTDIR set or systemd not running)"; \
	fi

uninstall-queue:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl disable $(QUEUE_UNIT) || true; \
	fi
	rm -f $(DESTDIR)$(UNITDIR)/$(QUEUE_UNIT)
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "removed $(QUEUE_UNIT); queue state and results kept in /var/lib/iostrat"

.PHONY: install-queue uninstall-queue
