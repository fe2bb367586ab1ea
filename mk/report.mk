# report.html is tested in a real headless browser (tests/report-html.sh):
# `make check` installs Debian's chromium first (the test SKIPs, saying
# so, where it cannot be installed); `make run` does not need it.
CHECK_PKGS := chromium
check-deps:
	@./mk/deps.sh $(CHECK_PKGS) || echo "deps: no chromium: the report.html browser test will SKIP"
check: check-deps

.PHONY: check-deps
