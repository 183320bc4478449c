"""The shape of every forward pass of the llama.cpp engine, chosen so that answers are
bit-identical whatever runs beside or before them.

Answers must not depend on which requests share a forward pass, or on which ran before: a fresh
run, a resumed run and a run in another order must store the same bytes. llama.cpp's CPU
kernels do not give that for free. Measured on the embedded Gemma 3 270M (AVX2 build): a row of
a matrix product is computed by a 4-row kernel when it falls in a full group of four rows of the
batch and by a 1-row kernel otherwise, and the two differ by up to 4 logits on this model
(decoding a prompt in chunks of 85 + 11 tokens gave other logits than 96 at once; chunks whose
sizes are multiples of 4 gave identical ones); and in a KV cache shared by all sequences a
sequence's cells land at offsets that depend on its batch-mates, which changes the attention's
summation order. So every forward pass of the engine has a row count and an output count that
are multiples of :data:`ROW_GROUP` and at least :data:`MIN_ROWS` (padding rows are added and
discarded; 4-row passes take yet another kernel), flash attention is off, and every sequence
has a KV stream of its own (``kv_unified = false``), laid out the same way whatever runs beside it.
Under that discipline a request's logits are bit-identical whether it runs alone, in a batch of
16 or after any other request (``tests/models/test_llamacpp.py`` checks the stored answers).
Those answers differ from the ones llama-cpp-python's plain loop gives (which mixes both kernels
by prompt length), so the backend names this decoder in its model description and old and new
answers are never pooled.
"""

from __future__ import annotations

ROW_GROUP = 4
"""Rows and outputs of every forward pass are padded to a multiple of this (see above)."""
MIN_ROWS = 8
"""... and to at least this many: passes of 4 rows take yet another kernel than 8 or more."""


def padded_rows(n: int) -> int:
    """The rows a forward pass of ``n`` rows is padded to (whole groups, at least MIN_ROWS)."""
    return max(MIN_ROWS, n + (-n % ROW_GROUP))


SCORE_GROUP = 4
"""Options scored in one forward pass (each in a sequence of its own)."""


def score_shape(n_options: int, rows: int) -> tuple[int, int]:
    """(sequences, rows each) of a scoring pass for ``n_options`` options of at most ``rows``
    rows: every option padded to one length (llama.cpp's rule for one ubatch of several
    sequences), padding sequences added, the total a whole number of row groups and at least
    MIN_ROWS; the fewest rows, then the fewest sequences."""
    shapes = [
        (n * length, n, length)
        for n in range(n_options, SCORE_GROUP + 1)
        for length in range(rows, rows + MIN_ROWS + 1)
        if (n * length) % ROW_GROUP == 0 and n * length >= MIN_ROWS
    ]
    _, n, length = min(shapes)
    return n, length
