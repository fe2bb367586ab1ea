# make lint: cppcheck and clang-tidy with a chosen check set, shellcheck over
# every shell script, the playbook's linters; zero findings.
# cppcheck needs to know jansson's iteration macros (mk/cppcheck.h); clang-tidy's checks are
# bug finders (clang-analyzer, bugprone) minus the ones that fight the
# house style (reserved identifiers from kernel headers, easily-swappable
# parameters in small helpers, narrowing in byte arithmetic).
LINT_SRCS := $(shell find src -name '*.c' | sort)
# (not -I$(BUILD): the skeletons embed whole BPF objects and cost cppcheck
# minutes; their code is generated, not ours)
CPPCHECK_FLAGS := -q -j2 --enable=warning,portability --std=c11 -D_GNU_SOURCE \
	--inline-suppr --error-exitcode=1 -Isrc -Iinclude --suppress=missingInclude \
	--include=mk/cppcheck.h \
	--suppress=missingIncludeSystem
TIDY_CHECKS := -*,clang-analyzer-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-reserved-identifier,-bugprone-narrowing-conversions,-bugprone-assignment-in-if-condition,-clang-analyzer-security.insecureAPI.*,-bugprone-implicit-widening-of-multiplication-result,-clang-analyzer-valist.Uninitialized,-bugprone-suspicious-string-compare,-bugprone-sizeof-expression,-bugprone-not-null-terminated-result,-bugprone-misplaced-widening-cast,-clang-analyzer-deadcode.DeadStores

lint: all
	$(call say,CPPCHK,src)
	$(Q)cppcheck $(CPPCHECK_FLAGS) $(LINT_SRCS)
	$(call say,TIDY,src)
	$(Q)./mk/tidy.sh $(BUILD) '$(TIDY_CHECKS)' $(LINT_SRCS)

.PHONY: lint

# Every shell script of the tree (docs/shell.md): warnings and errors fail
# it; .shellcheckrc finds a sourced lib.sh beside its script.
SHELL_SRCS := $(wildcard tests/*.sh tests/*.inc tests/tools/*.sh mk/*.sh speed/*.sh \
	lab/lab lab/*.sh lab/guest/*.sh lab/guest/iostrat-lab-guest \
	lab/reboot-guest/*.sh lab/reboot-guest/iostrat-lab-ctl \
	.ci/run completion/iostrat.bash debian/postrm debian/prerm)
shellcheck:
	$(call say,SHCHK,'$(words $(SHELL_SRCS)) shell scripts')
	$(Q)shellcheck -x -S warning $(SHELL_SRCS)

lint: shellcheck

.PHONY: shellcheck

# The fleet playbook (deploy/, docs/fleet.md): Ansible's own syntax check
# and ansible-lint's production profile, each only where it is installed
# (apt-get install ansible ansible-lint); otherwise one SKIP line saying so.
# Their caches and temporary files go to a directory removed afterwards,
# not the user's home.
DEPLOY_INV := deploy/inventory.example.ini
deploy-lint:
	$(Q)tmp=$$(mktemp -d /tmp/iostrat-deploy-lint.XXXXXX); trap 'rm -rf "$$tmp"' EXIT; \
	export HOME=$$tmp ANSIBLE_LOCAL_TEMP=$$tmp/tmp XDG_CACHE_HOME=$$tmp/cache; \
	if command -v ansible-playbook >/dev/null; then \
		echo "  ANSIBLE deploy/site.yml --syntax-check"; \
		ANSIBLE_CONFIG=deploy/ansible.cfg ansible-playbook -i $(DEPLOY_INV) --syntax-check deploy/site.yml >/dev/null || exit 1; \
	else echo "SKIP: deploy/ syntax check: ansible-playbook not installed (apt-get install ansible)"; fi; \
	if command -v ansible-lint >/dev/null; then \
		echo "  ANSLINT deploy/"; \
		ansible-lint --offline -q -p deploy/ || exit 1; \
	else echo "SKIP: deploy/ ansible-lint: not installed (apt-get install ansible-lint)"; fi

lint: deploy-lint

.PHONY: deploy-lint
