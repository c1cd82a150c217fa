"""WCAG 2.2's contrast ratio, written out from the criterion's definitions ("relative
luminance", "contrast ratio"), for tests that check a colour against what it is drawn on."""

RGB = tuple[int, int, int]


def luminance(rgb: RGB) -> float:
    """The relative luminance of an sRGB colour, 0 for black to 1 for white."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGB, other: RGB) -> float:
    """(L1 + 0.05) / (L2 + 0.05), L1 the lighter colour's luminance: 1 to 21."""
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def parse_colour(colour: str) -> RGB:
    """``#rrggbb``, or a computed ``rgb(r, g, b)`` / ``rgba(r, g, b, a)`` (its alpha
    dropped) as three channels."""
    colour = colour.strip()
    if colour.startswith("#") and len(colour) == 7:
        return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    if colour.startswith(("rgb(", "rgba(")):
        r, g, b = (round(float(v)) for v in colour[colour.index("(") + 1 : -1].split(",")[:3])
        return (r, g, b)
    raise ValueError(f"not a colour this reads: {colour!r} (#rrggbb, rgb(), rgba())")
