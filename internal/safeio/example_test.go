package safeio_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// A model string from a capture, with an escape sequence that would clear
// the screen and a line break that would forge a line of the report.
func ExampleEscapeTerminal() {
	model := "Samsung\x1b[2J\r\nverdict: match"
	fmt.Println(safeio.EscapeTerminal(model))
	fmt.Println(safeio.EscapeTerminal("Lexar SSD NM790 2TB ½ 日本"))
	// Output:
	// Samsung\x1b[2J\r\nverdict: match
	// Lexar SSD NM790 2TB ½ 日本
}

func ExampleCSVCell() {
	fmt.Println(safeio.CSVCell(`=HYPERLINK("http://x","click")`))
	fmt.Println(safeio.CSVCell("Samsung SSD 990 EVO Plus"))
	// Output:
	// '=HYPERLINK("http://x","click")
	// Samsung SSD 990 EVO Plus
}

// A report written atomically, and printed through a checked writer.
func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "safeio-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "report.txt")
	err = safeio.WriteFile(out, 0o644, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "nvme0: match")
		return err
	})
	fmt.Println(err)

	w := safeio.NewWriter(os.Stdout)
	b, err := safeio.ReadFile(out, 4096)
	w.Printf("%s%v\n", b, err)
	fmt.Println(w.Err())
	// Output:
	// <nil>
	// nvme0: match
	// <nil>
	// <nil>
}
