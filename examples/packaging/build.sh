#!/bin/sh
# Fills dist/ with what examples/packaging/nfpm.yaml packages that the
# repository does not hold: the binary and the completion scripts. CI-side;
# run from the repository's top directory.
set -eu
mkdir -p dist/completions
CGO_ENABLED=0 go build -trimpath -o dist/apstctl ./examples/apstctl
./dist/apstctl completion bash > dist/completions/apstctl.bash
./dist/apstctl completion zsh > dist/completions/_apstctl
./dist/apstctl completion fish > dist/completions/apstctl.fish
