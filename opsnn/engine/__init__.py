"""The compiled elementwise engine, shared by every operator's fast path: the C module (built at
install where a C compiler is; nothing is compiled at run time), the machine it runs on and the
crossovers chosen for it, and the bit-range form of the comparisons its loops test. It knows no
operator: an operator describes its element rule as a mode and ranges (keys.py, lanes.py)."""
