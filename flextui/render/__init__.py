"""Pure projections of data into text: no Textual, no argparse, usable by the TUI, the CLI and the logs alike."""
