"""Draw the field app's icons (our own artwork) into pwa/icons/.

Run: .venv/bin/python tools/make_icons.py  (the PNGs are committed; rerun only to change the art)

A shield with a check mark over the yellow "MOTO TÁXI" stripe on a dark blue field: high
contrast in sunlight and readable at 48 px. Shapes only (no font files, so the output does not
depend on the machine). Drawn at 4x and downsampled for smooth edges.
"""
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "pwa" / "icons"
BLUE = (11, 45, 94)
YELLOW = (255, 204, 0)
WHITE = (255, 255, 255)
GREEN = (22, 128, 61)
SUPERSAMPLE = 4


def draw(size: int, maskable: bool) -> Image.Image:
    s = size * SUPERSAMPLE
    img = Image.new("RGB", (s, s), BLUE)
    d = ImageDraw.Draw(img)
    # Maskable icons may be cropped to a circle of 80% diameter: keep the art inside it.
    scale = 0.62 if maskable else 0.86
    cx = cy = s / 2

    def p(x: float, y: float) -> tuple[float, float]:
        """Map art coordinates in [-0.5, 0.5] to pixels."""
        return (cx + x * s * scale, cy + y * s * scale)

    # Yellow stripe across the whole icon (the moto-táxi stripe).
    d.rectangle([0, p(0, 0.05)[1], s, p(0, 0.22)[1]], fill=YELLOW)
    # Shield: flat top with rounded shoulders, pointed bottom.
    shield = [p(-0.36, -0.42), p(0.36, -0.42), p(0.36, 0.05), p(0.0, 0.47), p(-0.36, 0.05)]
    d.polygon(shield, fill=WHITE)
    inner = [p(-0.29, -0.35), p(0.29, -0.35), p(0.29, 0.02), p(0.0, 0.38), p(-0.29, 0.02)]
    d.polygon(inner, fill=BLUE)
    # Check mark.
    d.line([p(-0.17, -0.04), p(-0.04, 0.10), p(0.19, -0.19)], fill=YELLOW,
           width=int(s * scale * 0.09), joint="curve")
    return img.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
        draw(size, maskable=True).save(OUT / f"maskable-{size}.png", optimize=True)
    print(f"icons written to {OUT}")


if __name__ == "__main__":
    main()
