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
