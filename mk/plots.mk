# make plots and make figures: the figures of a results directory, and docs/figures/ (docs/figures.md):
#   make plots DIR=results/...   render every figure of a results directory
#   make figures                 re-make docs/figures/ from a fresh small run
plots: all
	$(Q)if [ -z "$(DIR)" ]; then echo "usage: make plots DIR=<results directory>" >&2; exit 2; fi
	$(Q)$(BIN) plot "$(DIR)"

figures: all
	$(Q)./mk/figures.sh $(BIN)

.PHONY: plots figures
