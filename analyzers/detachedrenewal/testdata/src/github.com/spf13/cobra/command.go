// Package cobra is a stub of github.com/spf13/cobra v1.10.2 for this
// analyzer's fixtures: real signatures, no behaviour.
package cobra

import "context"

type Command struct {
	Use   string
	Short string

	PersistentPreRunE func(cmd *Command, args []string) error
	PreRunE           func(cmd *Command, args []string) error
	Run               func(cmd *Command, args []string)
	RunE              func(cmd *Command, args []string) error
	PostRunE          func(cmd *Command, args []string) error
}

func (c *Command) Execute() (_ error)                           { return }
func (c *Command) Context() (_ context.Context)                 { return }
func (c *Command) AddCommand(cmds ...*Command)                  {}
func (c *Command) ExecuteContext(ctx context.Context) (_ error) { return }
