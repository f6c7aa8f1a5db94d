"""Issue 30: reversed type (light on a dark ground) is at least 6 pt bold, a `cardgen check`
rule on the layouts, so a layout change cannot bring back 5.6 pt italic footers or 4.5 pt
token labels."""

from __future__ import annotations

from conftest import at, replace_in

from cardgen.check.reversed import card_findings, token_findings
from cardgen.cli import main
from cardgen.data.layout import load_layout


def test_the_shipped_layouts_keep_reversed_type_at_6_pt_bold(project):
    assert card_findings(at(project), load_layout(project / "layouts" / "card.yaml")) == []
    assert token_findings(at(project)) == []


def test_a_small_italic_card_footer_is_an_error_at_its_line(project, capsys):
    line = replace_in(project / "layouts" / "card.yaml", "  font: bold\n  size: 7\n",
                      "  font: italic\n  size: 5.6\n")
    assert main(["check", "--project", str(project)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "error[reversed-text]" in text and "bottom_strip.size: 5.6 pt italic" in text
    assert f"layouts/card.yaml:{line + 1}:" in text  # the size's own line


def test_a_small_token_label_is_an_error_at_its_line(project):
    replace_in(project / "layouts" / "tokens.yaml", "side_name: {font: bold, size: 7,",
               "side_name: {font: body, size: 4.5,")
    (found,) = token_findings(at(project))
    assert found.code == "reversed-text" and "4.5 pt body" in found.message
    assert found.location.file.endswith("tokens.yaml") and found.location.line


def test_reversed_type_under_7_pt_is_refused_and_prints_in_paper_white(project, capsys):
    """Issue 41, item 4: a shop's floor for light type on a dark ground is 7 pt bold, in
    paper white (0/0/0/0), never a four-ink tint that a drifting plate fills in."""
    from cardgen.data.layout import load_layout
    from cardgen.render.cmyk import default_converter
    layout = load_layout(project / "layouts" / "card.yaml")
    assert layout.colours.text_light == "#ffffff"
    assert tuple(default_converter().colour(layout.colours.text_light).cmyk()) == (0, 0, 0, 0)
    line = replace_in(project / "layouts" / "card.yaml", "  font: bold\n  size: 7\n",
                      "  font: bold\n  size: 6.5\n")
    assert main(["check", "--project", str(project)]) == 1
    text = "".join(capsys.readouterr())
    assert "bottom_strip.size: 6.5 pt bold" in text and f"layouts/card.yaml:{line + 1}:" in text
