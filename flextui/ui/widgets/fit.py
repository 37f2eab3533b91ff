"""A dialog that always shows its buttons: one part of it gives up rows when the terminal is short.

A dialog's box is `height: auto` with a `max-height`: the box stops growing there and cuts what
is below, and its buttons were what was cut (a raw JSON at 80×24 ended after its note; Copy and
Done, the focused one among them, were off the box). Textual has no CSS that shrinks one child of
an auto-height box to what the others leave, so `fit` does it: the part that can scroll (a text
area, a list, a record's body) is capped at the rows the rest of the box leaves it, never more
than its own `max-height` in the stylesheet.
"""

from __future__ import annotations

from textual.widget import Widget


def rows_left(box: Widget, part: Widget) -> int:
    """Rows `part` (a child of `box`) may take with every other child of `box` shown whole, its margins collapsed
    as Textual's vertical layout collapses them."""
    around = box.parent.size if isinstance(box.parent, Widget) else box.app.size  # (the dialog's screen)
    limit = box.styles.base.max_height
    rows = int(limit.resolve(around, box.app.size)) if limit is not None else around.height
    rows -= box.styles.gutter.height
    below = 0  # the bottom margin of the child above
    for child in box.displayed_children:
        margin = child.styles.margin
        rows -= max(below, margin.top)
        below = margin.bottom
        if child is not part:
            rows -= child.outer_size.height
    return rows - below


def fit(box: Widget, part: Widget, *, least: int = 1) -> None:
    """Cap `part` at the rows `box` leaves it (`rows_left`), at least `least`, where its stylesheet's `max-height`
    would not fit (else the stylesheet's limit stands alone: a dialog that fits is drawn as it always was).

    Call it once the box is laid out (its other children's heights depend on its width: a note wraps)."""
    if not (box.is_attached and part.is_attached) or box.app.size.height <= 0:
        return
    most = rows_left(box, part)
    cap = part.styles.base.max_height
    wanted: int | None = max(least, most)
    if cap is not None and most >= int(cap.resolve(box.content_size, box.app.size)):
        wanted = None  # the stylesheet's own limit fits: the layout is exactly the stylesheet's
    current = part.styles.inline.max_height
    if (None if current is None else current.cells) != wanted:
        part.styles.max_height = wanted


__all__ = ["fit", "rows_left"]
