"""Allow `python -m flextui`."""

from flextui.cli import main

raise SystemExit(main())
