#!/bin/sh
# usage: timed.sh LABEL COMMAND [ARG...]
# Runs COMMAND and then prints how long it took ("[time] LABEL: 12.3 s"), so that the log of
# make test shows where its setup spends the ten minutes CI allows. Exits with COMMAND's status.
label=$1
shift
start=$(date +%s.%N)
"$@"
status=$?
end=$(date +%s.%N)
awk -v l="$label" -v a="$start" -v b="$end" -v s="$status" \
    'BEGIN { printf "[time] %s: %.1f s%s\n", l, b - a, (s == 0 ? "" : " (failed: exit " s ")") }'
exit $status
