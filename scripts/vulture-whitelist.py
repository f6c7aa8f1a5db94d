"""Names vulture reports as unused that are used, from outside the code it reads.

Read by `vulture cardgen tests bench scripts/vulture-whitelist.py` (scripts/test.sh), never
run. Each line names one attribute, method or variable; `_` stands for any object. Add a name
here only when something vulture cannot see uses it (a library's hook, generated code, a
subprocess), with what uses it; dead code is deleted instead.
"""

# PyYAML calls its Dumper's hook (balance/proposal.py: a value written twice is not aliased)
_.ignore_aliases
# pickle.Unpickler calls find_class for every global a pickle names (files/pickles.py)
_.find_class

# ReportLab reads what is set on its PDF objects: the catalog's output intent (impose/canvas.py),
# a chart drawing's starting font (playtest/charts.py), a resource dictionary's entries
# (render/cmyk.py, render/faceforms.py), a stream's comment (render/pdfpage.py)
_.OutputIntents
_.initialFontName
_.XObject
_.ExtGState
_.Font
_.Shading
_.__Comment__
# assigning __class__ turns an object into a subclass (render/cmyk.py, render/pdfpage.py)
_.__class__
# ReportLab calls a flowable's wrap(avail_w, avail_h); the cells use only the width
# (translate/proof_cells.py)
avail_h

# http.server reads these class attributes and calls these methods (serve/web.py)
daemon_threads
server_version
_.log_message
_.do_GET
_.do_POST

# Jinja2 uses the sandbox's hooks (wording/sandbox.py): binary operators it intercepts and calls
# call_binop for, the code generator class, whose visit_Concat writes code that calls
# environment.join_text
intercepted_binops
code_generator_class
_.call_binop
_.visit_Concat
_.join_text

# pytest calls its hooks and reads pytestmark (tests/); Selenium reads the browser's path
# (tests/test_serve_browser.py)
pytest_configure
pytest_unconfigure
pytestmark
_.binary_location
# bench/run.py's timed subprocess imports it from a code string
art_image

# Unused, in packages others are editing (left to them to use or delete): a layout property
# (data/layout.py), a token size constant (board/tokens.py), a tunable's location that is
# stored but never read (balance/spec.py)
_.safe_box
REVERSED_PT
spec_loc

# codes.Code.about: the registry's description of each code, for people reading it
_.about
# serve/web.py Limits: read by name (getattr(self.limits, kind)) in the server's take()
_.threads
_.streams
# io.RawIOBase's protocol, called by io.BufferedReader around serve/web.py _DeadlineReader
_.readable
_.readinto

# openpyxl and zipfile read what is set on their objects: the workbook's dates and authors
# and a text cell's type (sheet/xlsx.py), a ZIP member's permissions (sheet/zipped.py)
_.created
_.modified
_.creator
_.lastModifiedBy
_.external_attr
_.data_type
_._forget_between_modules  # tests/conftest.py: an autouse fixture pytest calls
_.english_terminal  # tests/conftest.py: an autouse fixture pytest calls
