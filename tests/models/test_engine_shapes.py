"""The row shapes of the llama.cpp engine's forward passes (no model needed)."""

from __future__ import annotations

import pytest

from biasbench.models.llamacpp_passes import MIN_ROWS, ROW_GROUP, SCORE_GROUP, score_shape


@pytest.mark.parametrize(
    ("options", "rows", "expected"),
    [
        (3, 5, (4, 5)),  # 15 rows: a padding sequence makes 20, fewer than 3 x 8
        (3, 4, (3, 4)),  # 12 rows: already whole groups
        (3, 1, (4, 2)),  # one-token options (letters): 8 rows, the fewest allowed
        (2, 3, (2, 4)),  # 8 rows: each option padded by one row
        (4, 7, (4, 7)),  # 28 rows
        (1, 9, (1, 12)),  # one option: padded to a whole group
    ],
)
def test_score_shape(options: int, rows: int, expected: tuple[int, int]) -> None:
    n, length = score_shape(options, rows)
    assert (n, length) == expected
    assert n >= options and length >= rows and n <= SCORE_GROUP
    assert (n * length) % ROW_GROUP == 0 and n * length >= MIN_ROWS
