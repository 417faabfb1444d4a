"""The trace as an SVG picture: lanes with labels, spans with op names, a time axis with breaks.

Set-up calls (aclrtSetDevice, aclnnInit) take tens of milliseconds of host time, kernels a few
simulated microseconds; drawn to one linear scale the set-up fills the picture and the kernels
vanish. So the axis is broken, as a plotted axis is broken around an outlier: time is cut into the
intervals between span edges, an interval much longer than the typical one (``BREAK_FACTOR``
times the median, and at least 1/400 of the whole) is drawn at that capped length with a
break mark and its real length written under the axis, and every other interval keeps its true
proportion. The ticks stay real times.
"""

from __future__ import annotations

import math
import statistics
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from emulator.trace_lanes import Lane, Lanes

if TYPE_CHECKING:
    from emulator.trace import Event

BREAK_FACTOR = 8.0  # an interval longer than this many median intervals is broken
WIDTH = 1100
LANE_HEIGHT = 44  # a span in the middle, a row of op names above it and one below
CHAR_WIDTH = 6.7  # monospace at font-size 11
NAME_WIDTH = 5.5  # the op names, at font-size 9
TOP = 28
COLORS = {"api": ("#a9c8f5", "#2f5fa8"), "task": ("#ffc98a", "#c0701a")}  # fill, outline


@dataclass(frozen=True, slots=True)
class Cut:
    """An interval drawn shorter than it lasted."""

    start_us: float
    end_us: float


class BrokenAxis:
    """Real time (us) to drawn time: true proportions, except the long intervals, which are capped."""

    def __init__(self, edges: Sequence[float]) -> None:
        self.edges = sorted(set(edges))
        lengths = [b - a for a, b in zip(self.edges, self.edges[1:], strict=False)]
        positive = [length for length in lengths if length > 0]
        whole = self.edges[-1] - self.edges[0] if self.edges else 0.0
        self.cap = max(BREAK_FACTOR * statistics.median(positive), whole / 400) if positive else 1.0
        self.cuts = [Cut(a, a + n) for a, n in zip(self.edges, lengths, strict=False) if n > self.cap]
        self._drawn = [0.0]  # the drawn time at each edge
        for length in lengths:
            self._drawn.append(self._drawn[-1] + min(length, self.cap))

    @property
    def total(self) -> float:
        return self._drawn[-1] or 1.0

    def __call__(self, t: float) -> float:
        """Drawn time of real time ``t`` (linear inside each interval)."""
        i = max(0, min(bisect_right(self.edges, t) - 1, len(self.edges) - 2))
        if len(self.edges) < 2:
            return 0.0
        a, b = self.edges[i], self.edges[i + 1]
        frac = (t - a) / (b - a) if b > a else 0.0
        return self._drawn[i] + frac * (self._drawn[i + 1] - self._drawn[i])

    def in_cut(self, t: float) -> bool:
        return any(cut.start_us < t < cut.end_us for cut in self.cuts)


def render_svg(events: Sequence[Event], lanes: Lanes) -> str:
    spans = [e for e in events if e.kind in ("api", "task")]
    if not spans:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    origin = min(e.ts_us for e in spans)
    ends = [(e.ts_us - origin, e.ts_us - origin + max(e.dur_us, 0.01)) for e in spans]
    axis = BrokenAxis([t for pair in ends for t in pair])
    order = lanes.ordered()
    labels = {lane: _label(lane) for lane in order}
    left = 12 + CHAR_WIDTH * max(len(text) for text in labels.values())
    scale = (WIDTH - left - 16) / axis.total
    bottom = TOP + LANE_HEIGHT * len(order)

    def x(t: float) -> float:
        return left + axis(t) * scale

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{bottom + 66}" '
             'font-family="monospace" font-size="11">',
             '<text x="8" y="16" font-weight="bold">opbase-emu trace: API calls per host thread, '
             "tasks per device stream</text>"]  # fmt: skip
    parts.append('<g id="lanes">')
    for i, lane in enumerate(order):
        y = TOP + i * LANE_HEIGHT
        shade = "#f4f6fa" if i % 2 == 0 else "#ffffff"
        parts.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{LANE_HEIGHT}" fill="{shade}"/>')
        parts.append(f'<text x="6" y="{y + LANE_HEIGHT // 2 + 4}" class="lane">{escape(labels[lane])}</text>')
    parts.append("</g>")
    rects, names = _spans(spans, ends, lanes, order, x)
    parts += rects + _breaks(axis, x, bottom) + names  # the names over the break bands
    parts.extend(_ticks(axis, x, bottom))
    legend = ("blue: API calls (host clock); orange: device tasks (simulated durations); "
              "// an axis break: a long interval drawn short")  # fmt: skip
    parts.append(f'<text x="8" y="{bottom + 56}" fill="#555">{escape(legend)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _label(lane: Lane) -> str:
    return lane.name if lane.host else f"dev {lane.pid - 100} {lane.name}"


Scale = Callable[[float], float]  # real time (us from the first span) to an x coordinate


def _spans(spans: Sequence[Event], ends: Sequence[tuple[float, float]], lanes: Lanes, order: list[Lane],
           x: Scale) -> tuple[list[str], list[str]]:  # fmt: skip
    """One rect per span (its name and duration in a tooltip), and its name above or below it where there is room.

    Names start at their span and alternate between the two rows; a name that would run into the
    previous one of its row is left to the tooltip.
    """
    parts = ['<g id="spans">']
    names: list[str] = ['<g id="names" font-size="9">']
    room: dict[tuple[Lane, int], float] = {}
    for ev, (start, end) in sorted(zip(spans, ends, strict=True), key=lambda pair: pair[1][0]):
        lane = lanes.of_event(ev)
        y = TOP + order.index(lane) * LANE_HEIGHT
        x0 = x(start)
        width = max(x(end) - x0, 2.0)
        fill, stroke = COLORS["api" if ev.kind == "api" else "task"]
        parts.append(f'<rect x="{x0:.1f}" y="{y + 13}" width="{width:.1f}" height="{LANE_HEIGHT - 26}" '
                     f'fill="{fill}" stroke="{stroke}" stroke-width="0.5">'
                     f"<title>{escape(ev.name)} ({ev.dur_us:.1f} us)</title></rect>")  # fmt: skip
        row = next((r for r in (0, 1) if x0 >= room.get((lane, r), -math.inf)), None)
        if row is not None:
            baseline = y + 10 if row == 0 else y + LANE_HEIGHT - 3
            names.append(f'<text x="{x0:.1f}" y="{baseline}" class="op">{escape(ev.name)}</text>')
            room[(lane, row)] = x0 + NAME_WIDTH * len(ev.name) + 4
    parts.append("</g>")
    names.append("</g>")
    return parts, names


def _breaks(axis: BrokenAxis, x: Scale, bottom: int) -> list[str]:
    """Each cut: a white band with two slanted strokes through the lanes and the axis, and its real length."""
    parts = ['<g id="breaks">']
    room = -math.inf
    for cut in axis.cuts:
        mid = (x(cut.start_us) + x(cut.end_us)) / 2
        length = _duration(cut.end_us - cut.start_us)
        parts.append(f'<rect x="{mid - 3:.1f}" y="{TOP}" width="6" height="{bottom - TOP + 8}" fill="#ffffff">'
                     f"<title>axis break: {length} cut</title></rect>")  # fmt: skip
        for dx in (-3, 3):
            parts.append(f'<line x1="{mid + dx - 3:.1f}" y1="{bottom + 10}" x2="{mid + dx + 3:.1f}" '
                         f'y2="{bottom - 2}" stroke="#333"/>')  # fmt: skip
        label = f"{length} cut"
        if mid - CHAR_WIDTH * len(label) / 2 >= room:  # the others keep their tooltip
            parts.append(f'<text x="{mid:.1f}" y="{bottom + 36}" text-anchor="middle" fill="#a33" class="cut">'
                         f"{label}</text>")  # fmt: skip
            room = mid + CHAR_WIDTH * len(label) / 2 + 8
    parts.append("</g>")
    return parts


def _ticks(axis: BrokenAxis, x: Scale, bottom: int) -> list[str]:
    """The axis line and ticks at round real times (none inside a cut, none crowding the one before)."""
    parts = ['<g id="axis">', f'<line x1="{x(0.0):.1f}" y1="{bottom + 4}" x2="{WIDTH - 16}" y2="{bottom + 4}" '
             'stroke="#333"/>']  # fmt: skip
    step = _nice(axis.total / 8)
    end = axis.edges[-1]
    candidates = [k * step for k in range(int(end // step) + 1)]
    candidates += [t for cut in axis.cuts for t in (cut.start_us, cut.end_us)]
    last = -math.inf
    for t in sorted(set(candidates)):
        if axis.in_cut(t):
            continue
        px = x(t)
        if px - last < 64:
            continue
        last = px
        parts.append(f'<line x1="{px:.1f}" y1="{bottom + 4}" x2="{px:.1f}" y2="{bottom + 9}" stroke="#333"/>')
        parts.append(f'<text x="{px:.1f}" y="{bottom + 22}" text-anchor="middle" class="tick">{_ms(t, step)}</text>')
    parts.append("</g>")
    return parts


def _nice(raw: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) at least ``raw``."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _ms(t_us: float, step_us: float) -> str:
    """A tick's label: as many decimals as the step needs, one more for a cut's edge (off the step)."""
    decimals = max(0, -math.floor(math.log10(step_us / 1000)))
    if abs(t_us / step_us - round(t_us / step_us)) > 1e-6:
        decimals += 1
    return f"{t_us / 1000:.{min(decimals, 3)}f} ms"


def _duration(us: float) -> str:
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} us"
