package capture

import "strings"

// nvme-cli's -H output of Get Features FID 0Ch in its "name : value"
// tables (FeatureTextTable). nvme-cli's tabularized stdout printer
// (linux-nvme/nvme-cli pull request 4049, "tabularize stdout output",
// open in September 2026, and nvme-print-stdout.c on its default branch)
// builds each APST entry with stdout_kv_table_create,
// shr_table_set_indent(t, 2) and stdout_kv_add, which writes three
// left-aligned columns: the name, ":" and the value. Each field is thus
// its name padded to the widest name of its table, a blank, a colon, a
// blank and the value, as in the pull request's real id-ctrl sample
// ("vid       : 0x2646", a Kingston NV2), and the ITPS name lost the three
// blanks before "(ITPS)" that v0.9 to v2.x print:
//
//	get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001
//		Autonomous Power State Transition Enable (APSTE): Enabled
//		Auto PST Entries	.................
//		Entry[ 0]
//		.................
//		  Idle Time Prior to Transition (ITPT) : 100 ms
//		  Idle Transition Power State (ITPS)   : 3
//		.................
//
// No capture of a drive's APST table in this layout has been published
// yet: the lines above are built from the printer's source (facts and
// formats, no code copied), so the reader takes what may vary with the
// table code: any run of blanks or tabs before a field and between its
// name and the colon, and the APSTE line in either layout. A capture
// mixes no layouts in its entries: the first field line decides.

// featureTextForm tells from a -H field line t which -H layout it is in:
// FeatureTextTable for a "name : value" line, FeatureText otherwise.
func featureTextForm(t string) FeatureFormat {
	if _, table := untable(normSpace(t)); table {
		return FeatureTextTable
	}
	return FeatureText
}

// untable rewrites a field line n (blanks collapsed) of the table layout,
// "NAME (ABBR) : VALUE", as the classic layout writes it, "NAME (ABBR):
// VALUE", and reports whether it was in the table layout. Other lines are
// returned as they are.
func untable(n string) (string, bool) {
	i := strings.Index(n, ") :")
	if i < 0 || strings.Contains(n[:i], ":") {
		return n, false
	}
	return n[:i+1] + n[i+2:], true
}

// fieldLayout remembers the -H layout of a capture's field lines: the
// first decides, and a line in the other is refused.
type fieldLayout struct {
	known, table bool
}

// field returns n (blanks collapsed) in the classic layout, and false when
// its layout is not the one the capture's first field line set.
func (f *fieldLayout) field(n string) (string, bool) {
	c, table := untable(n)
	if !f.known {
		f.known, f.table = true, table
	}
	return c, table == f.table
}

// form is the capture's -H form: FeatureTextTable when its fields are in
// the table layout.
func (f *fieldLayout) form() FeatureFormat {
	if f.table {
		return FeatureTextTable
	}
	return FeatureText
}

// apsteLine is the APSTE line t with blanks collapsed, in the classic
// layout whichever it is printed in.
func apsteLine(t string) string {
	n, _ := untable(normSpace(t))
	return n
}

// layoutExpected says what a field line in the capture's layout looks like.
func layoutExpected(classic string, f fieldLayout) string {
	if f.table {
		n, _, _ := strings.Cut(classic, ":")
		return `"` + n + " :" + classic[len(n)+1:] + `" (in nvme-cli's "name : value" table, as the entries before)`
	}
	return `"` + classic + `" (as the entries before)`
}
