"""The config file's ``[game] variant``: any Hanab Live variant a printed deck carries, by name."""

from __future__ import annotations

import pytest

from companion.shell.config import DEFAULT_CONFIG_TOML, ConfigError, parse_config


def _game(lines: str) -> str:
    return "[game]\nplayers = 3\n" + lines + "\n"


def test_a_variant_by_its_name_is_the_default_offered() -> None:
    config = parse_config(_game('variant = "Pink (6 Suits)"'))
    assert config.game.options.variant == "Pink (6 Suits)"
    assert config.game.options.rules().suits[-1].name == "Pink"


def test_the_default_file_names_the_key_commented_out_and_it_parses_uncommented() -> None:
    assert '# variant = "Pink (6 Suits)"' in DEFAULT_CONFIG_TOML
    assert parse_config(DEFAULT_CONFIG_TOML).game.options.variant is None
    uncommented = DEFAULT_CONFIG_TOML.replace("# variant =", "variant =")
    assert parse_config(uncommented).game.options.variant == "Pink (6 Suits)"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            'variant = "pink (6 suits)"',
            '<config>:3: [game] variant: "pink (6 suits)" is not the name of a Hanab Live'
            ' variant (its name is "Pink (6 Suits)")',
        ),
        (
            'variant = "Up or Down (5 Suits)"',
            '<config>:3: [game] variant: "Up or Down (5 Suits)" cannot be played with a printed'
            " deck: it needs START cards",
        ),
        ("variant = 6", "<config>:3: [game] variant: 6 must be a Hanab Live variant's name"),
        (
            'multicolor = "short"\nvariant = "Rainbow (6 Suits)"',
            "<config>:4: [game] variant: a variant by name brings its own suits: multicolor and"
            " wild multicolor are left out",
        ),
    ],
)
def test_a_wrong_variant_is_one_sentence_naming_its_line(line: str, said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(_game(line))
    assert str(caught.value) == said
