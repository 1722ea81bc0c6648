"""One module per operator (or per family of operators that differ only in a table row)."""
