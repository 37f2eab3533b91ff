"""flextui: a terminal explorer for the FlexNet Operations REST APIs.

Only the version lives here so that `flextui --version` and importing the data
layer never pay for Textual.
"""

__version__ = "0.1.0"
