#!/bin/sh
# Makes the pasted forms of testdata/forms from captures already in testdata, the way each
# occurs (see README.md). Run from this directory; needs sed, python3 (quopri, the encoder mail
# clients use), hexdump, xxd and od. The tests read the files, never run this.
set -eu
corpus=../corpus
evo=Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7
v1=$corpus/nvme-cli/synthetic/$evo.v1.txt
v212=$corpus/nvme-cli/synthetic/$evo.v2_12.txt
sm=$corpus/smartctl/$evo.txt
img=../identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin
feat=../../examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms

# A forum that strips leading white space.
sed 's/^[ \t]*//' "$v1" > evo.nvme-cli-v1.flattened.txt
sed 's/^[ \t]*//' "$v212" > evo.nvme-cli-v2_12.flattened.txt
sed 's/^[ \t]*//' "$sm" > evo.smartctl.flattened.txt

# The smartctl table pasted alone: the title, the column line and the rows, no final newline.
sed -n '/^Supported Power States/,/^$/p' "$sm" | sed '$d' | head -c -1 > evo.smartctl.table-only.txt

# A quoted-printable mail body: the capture in a message, then the message quoted twice in replies.
{
	printf 'Hi,\n\nhere is what nvme id-ctrl says on my laptop:\n\n'
	cat "$v212"
	printf '\nThanks, Ann\n'
} | python3 -m quopri > evo.nvme-cli-v2_12.qp.txt
{
	printf 'Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n'
	sed 's/^/> /' "$sm" | python3 -m quopri
} > evo.smartctl.qp-quoted-first.eml
python3 -m quopri < "$sm" | sed 's/^/> > /' > evo.smartctl.qp-quoted-after.txt

# nvme-cli 3.0 run with the old name and 2>&1: the deprecation warning first.
{
	printf "WARNING: 'nvme id-ctrl' is deprecated and will be removed, use 'nvme id ctrl' instead\n"
	cat "$v212"
} > evo.nvme-cli-3.0-warning.txt

# Hex dumps of the 4096-byte image (nvme id-ctrl --raw-binary /dev/nvme0 | ...), in a paste.
{ echo '$ sudo nvme id-ctrl --raw-binary /dev/nvme0 | hexdump -C'; hexdump -C "$img"; } > evo.image.hexdump-C.txt
xxd "$img" | sed 's/^/    /' > evo.image.xxd.txt
od -A x -t x1z "$img" > evo.image.od.txt
# A dump of half the image (a paste cut short): it says how many bytes it holds.
head -c 2048 "$img" | hexdump -C > evo.image-2048.hexdump-C.txt

# get-feature captures (the 990 EVO Plus at the 100 ms default).
# A wiki that shows Entry[ 0] to Entry[ 3] only, and says so.
{ sed -n '1,/^\tEntry\[ 4\]/p' "$feat.txt" | sed '$d'; printf '\t...\n(the other entries are zero)\n'; } > evo-feature.wiki-partial.txt
# A blog that shows the header and APSTE, and cuts the entries.
{ echo '$ sudo nvme get-feature -f 0x0c -H /dev/nvme0'; head -n 1 "$feat.txt" | sed 's/value:0x00000001/value:00000000/'; printf '\tAutonomous Power State Transition Enable (APSTE): Disabled\n'; } > evo-feature.blog-partial.txt
# nvme-cli 3.0: -f auto-pst, with a deprecation warning first.
{ echo "WARNING: 'get-feature' is deprecated, use 'nvme get feature' instead"; cat "$feat.txt"; } > evo-feature.auto-pst-3.0.txt
# Flattened, and in a quoted-printable mail quoted after the encoding.
sed 's/^[ \t]*//' "$feat.txt" > evo-feature.flattened.txt
python3 -m quopri < "$feat.txt" | sed 's/^/> /' > evo-feature.qp-quoted.txt
# The raw 256-byte buffer (nvme get-feature -f 0x0c -b) through the three dumpers.
hexdump -C "$feat.raw" > evo-feature.raw.hexdump-C.txt
xxd "$feat.raw" > evo-feature.raw.xxd.txt
od -A x -t x1z "$feat.raw" > evo-feature.raw.od.txt
