// Command golangci-lint is golangci-lint v2 with fencelint's module plugin
// compiled in: what "golangci-lint custom" builds from .custom-gcl.yml (it
// clones golangci-lint and adds this import to its main package), built
// here from the module proxy so that the test runs offline.
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/fencelint/fencelint/golangci"
)

func main() {
	info := commands.BuildInfo{Version: "v2.15.0+fencelint", Commit: "?", Date: "?", GoVersion: "?"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
