# make plots, figures and docs-columns: the figures of a results directory, docs/figures/ (docs/figures.md),
# and docs/results.md's column table:
#   make plots DIR=results/...   render every figure of a results directory
#   make figures                 re-make docs/figures/ from a fresh small run
#   make docs-columns            re-make docs/results.md's column table from iostrat __columns
plots: all
	$(Q)if [ -z "$(DIR)" ]; then echo "usage: make plots DIR=<results directory>" >&2; exit 2; fi
	$(Q)$(BIN) plot "$(DIR)"

figures: all
	$(Q)./mk/figures.sh $(BIN)

docs-columns: all
	$(Q)./mk/columns-doc.sh $(BIN)

.PHONY: plots figures docs-columns
