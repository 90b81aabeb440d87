"""A small SVG writer for the drawings in hardware/: the same profile gives the same bytes.

Numbers are written rounded to a tenth and text is escaped, so a drawing regenerated from
an unchanged profile is byte for byte the committed one (tests/hardware/test_drawings.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr


def number(value: float) -> str:
    """`value` as SVG writes it here: at most one decimal, no trailing ".0"."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Drawing:
    """Shapes added one by one, written out by `svg` in the order they were added."""

    def __init__(self, width: float, height: float, style: str, scale: float = 1, unit: str = "") -> None:
        """A drawing `width` x `height` in its own units, shown `scale` pixels a unit, or
        one `unit` ("mm": printed at 100 % it comes out at its true size) a unit."""
        self.width, self.height, self.scale, self.unit = width, height, scale, unit
        self.style = style
        self.parts: list[str] = []

    def _add(self, tag: str, attributes: dict[str, float | str], text: str | None = None) -> None:
        words = " ".join(f"{key}={quoteattr(number(value) if isinstance(value, float | int) else value)}"
                         for key, value in attributes.items())
        self.parts.append(f"<{tag} {words}/>" if text is None else f"<{tag} {words}>{escape(text)}</{tag}>")

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str = "wire") -> None:
        self._add("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "class": cls})

    def path(self, points: Iterable[tuple[float, float]], cls: str = "wire", closed: bool = False) -> None:
        """A polyline through `points` (a polygon if `closed`)."""
        words = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self._add("polygon" if closed else "polyline", {"points": words, "class": cls})

    def rect(self, x: float, y: float, width: float, height: float, cls: str = "part", radius: float = 0) -> None:
        attributes: dict[str, float | str] = {"x": x, "y": y, "width": width, "height": height, "class": cls}
        if radius:
            attributes["rx"] = radius
        self._add("rect", attributes)

    def circle(self, x: float, y: float, radius: float, cls: str = "part") -> None:
        self._add("circle", {"cx": x, "cy": y, "r": radius, "class": cls})

    def text(self, x: float, y: float, text: str, cls: str = "label", anchor: str = "start") -> None:
        attributes: dict[str, float | str] = {"x": x, "y": y, "class": cls}
        if anchor != "start":
            attributes["text-anchor"] = anchor
        self._add("text", attributes, text)

    def lines(self, x: float, y: float, texts: Iterable[str], step: float, cls: str = "label") -> float:
        """`texts` one under the other from (x, y); returns the y after the last."""
        for text in texts:
            self.text(x, y, text, cls)
            y += step
        return y

    def svg(self) -> str:
        if self.unit:
            size = f'width="{number(self.width)}{self.unit}" height="{number(self.height)}{self.unit}"'
        else:
            size = f'width="{number(self.width * self.scale)}" height="{number(self.height * self.scale)}"'
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" {size} '
                f'viewBox="0 0 {number(self.width)} {number(self.height)}">')
        return "\n".join([head, f"<style>{self.style}</style>",
                          f'<rect x="0" y="0" width="{number(self.width)}" height="{number(self.height)}" '
                          'fill="white"/>', *self.parts, "</svg>"]) + "\n"
