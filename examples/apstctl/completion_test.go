package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every shell's completion names every command of apstctl help, and for
// each command every flag it takes (long names and their short forms),
// and none it refuses as doing nothing for it (sweep's bound flags).
func TestCompletionsListEveryCommandAndFlag(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := apstctl(t, nil, "completion", shell)
		require.Equal(t, 0, code, errOut)
		for _, c := range commands() {
			assert.Contains(t, out, c.name, "%s: command %s", shell, c.name)
			if c.flags == nil {
				continue
			}
			for n := range c.ignores {
				if shell == "fish" {
					assert.NotContains(t, out, "__fish_seen_subcommand_from "+c.name+"' -l "+n+" ", "%s: %s --%s", shell, c.name, n)
				} else {
					section := completionSection(out, shell, c.name)
					assert.NotContains(t, section, spelling(n)+" ", "%s: %s --%s", shell, c.name, n)
					assert.NotContains(t, section, spelling(n)+"[", "%s: %s --%s", shell, c.name, n)
				}
			}
			for _, n := range c.flagOrder() {
				switch shell {
				case "fish":
					assert.Contains(t, out, "__fish_seen_subcommand_from "+c.name+"' -l "+n, "%s: %s --%s", shell, c.name, n)
				default:
					section := completionSection(out, shell, c.name)
					assert.Contains(t, section, spelling(n), "%s: %s --%s", shell, c.name, n)
					if s, ok := c.flags.short[n]; ok {
						assert.Contains(t, section, "-"+s, "%s: %s -%s", shell, c.name, s)
					}
				}
			}
		}
	}
}

// completionSection is the part of a bash or zsh script that lists the
// flags of command name.
func completionSection(script, shell, name string) string {
	marker := "        " + name + ") "
	if shell == "zsh" {
		marker = "\n    " + name + ")\n"
	}
	i := strings.Index(script, marker)
	if i < 0 {
		return ""
	}
	rest := script[i+len(marker):]
	if j := strings.Index(rest, ";;"); j >= 0 {
		return rest[:j]
	}
	return rest
}
