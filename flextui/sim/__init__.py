"""An embedded simulator of the FlexNet Operations REST APIs (a Starlette ASGI app).

`flextui demo` runs the TUI against it in-process; `flextui sim` serves it
over HTTP for tests, curl, and profiles. Its world is generated from a seed
and a scale, so every run sees the same data.
"""
