"""Mapping parser byte offsets to the one internal position unit (1-based line,
1-based code-point column), for whole files and for text embedded in them."""

from __future__ import annotations

import bisect
from typing import Sequence


class FileText:
    """Positions in a file's text as parsed from its UTF-8 bytes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        # Columns are byte counts on ASCII lines; only other lines need decoding.
        self._all_ascii = self.data.isascii()
        self._ascii_rows: dict[int, bool] = {}
        self._row_columns: dict[int, list[int]] = {}
        self._line_starts = [0]
        find = self.data.find
        start = find(b"\n")
        while start != -1:
            self._line_starts.append(start + 1)
            start = find(b"\n", start + 1)

    def position(self, byte_offset: int) -> tuple[int, int]:
        """(line, column) of the character at ``byte_offset``."""
        byte_offset = max(0, min(byte_offset, len(self.data)))
        row = bisect.bisect_right(self._line_starts, byte_offset) - 1
        line_start = self._line_starts[row]
        if self._all_ascii or self._row_is_ascii(row):
            return row + 1, byte_offset - line_start + 1
        # Decoding the prefix for every lookup made a long non-ASCII line
        # quadratic; each such row gets a byte -> column table once.
        table = self._row_columns.get(row)
        if table is None:
            table = self._row_columns[row] = self._columns_of(row)
        index = byte_offset - line_start
        return row + 1, table[min(index, len(table) - 1)]

    def _columns_of(self, row: int) -> list[int]:
        """1-based column of the character starting at each byte of the row; inside a
        character (a continuation byte) the column after it, as decoding the prefix
        with replacement gives."""
        end = self._line_starts[row + 1] if row + 1 < len(self._line_starts) else len(self.data)
        columns: list[int] = []
        column = 1
        for byte in self.data[self._line_starts[row] : end]:
            columns.append(column)  # a continuation byte: its character has begun
            if (byte & 0xC0) != 0x80:
                column += 1
        columns.append(column)  # the end of the row
        return columns

    def _row_is_ascii(self, row: int) -> bool:
        known = self._ascii_rows.get(row)
        if known is None:
            end = self._line_starts[row + 1] if row + 1 < len(self._line_starts) else len(self.data)
            known = self._ascii_rows[row] = self.data[self._line_starts[row] : end].isascii()
        return known


class EmbeddedText:
    """Positions of text that was assembled from pieces of another file (the string
    of ``bash -c "..."``, a Markdown fence): every character knows where it came
    from in the outer file."""

    def __init__(self, text: str, char_positions: Sequence[tuple[int, int]]) -> None:
        assert len(char_positions) == len(text)
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self._char_positions = list(char_positions)
        # byte offset -> char index for non-ASCII text
        if self.data.isascii():
            self._byte_to_char = None
        else:
            table = []
            for index, char in enumerate(text):
                table.extend([index] * len(char.encode("utf-8", "surrogatepass")))
            self._byte_to_char = table

    def position(self, byte_offset: int) -> tuple[int, int]:
        if not self._char_positions:
            return (1, 1)
        if self._byte_to_char is None:
            index = byte_offset
        else:
            index = self._byte_to_char[byte_offset] if byte_offset < len(self._byte_to_char) else len(self.text)
        if index >= len(self._char_positions):
            line, column = self._char_positions[-1]
            return line, column + 1
        return self._char_positions[max(index, 0)]
