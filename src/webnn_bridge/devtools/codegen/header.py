"""What every generated file's header says (the generators import it; so does the codegen command)."""

COMMAND = "webnn-bridge codegen"
# Every generated file's header carries MARKER (JSON tables: their "_generated" field; docs/operators.md's
# spliced table: its begin marker); tests/test_codegen.py scans the repository for it.
MARKER = "GENERATED FILE - DO NOT EDIT"
HEADER_LINE = f"Regenerate with `{COMMAND}`; CI runs `{COMMAND} --check`."
