"""Device selection: options normalization, pure decisions with reasons, privacy bucketing.

Probing hardware happens only in inventory.py; everything else is a pure function of
(options, inventory, graph, rules) and is testable without hardware.
"""
