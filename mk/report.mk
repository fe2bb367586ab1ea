# report.html is tested in a real headless browser (tests/report-html.sh):
# `make check` installs Debian's chromium first (the test SKIPs, saying
# so, where it cannot be installed); `make run` does not need it.  The
# statistics fixtures are checked against SciPy (tests/paired-fixtures.sh).
CHECK_PKGS := chromium python3-scipy python3-statsmodels
check-deps:
	@./mk/deps.sh $(CHECK_PKGS) || echo "deps: not all of $(CHECK_PKGS): the browser and SciPy tests will SKIP"
check: check-deps

.PHONY: check-deps
