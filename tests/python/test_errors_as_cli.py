"""Bad input raises a Python exception with the CLI's message: ValueError naming the key and
the reason for a bad parameter, setting or file."""

import pytest

from conftest import cli_message, source_path

import constraintlab


def after_given(message):
    """A message without what names the given value ("--set mu=-1" or "mu=-1")."""
    return message.split(": ", 1)[1]


def test_a_parameter_out_of_range_raises_value_error_with_the_cli_reason():
    expected = cli_message("run", "ring", "--set", "mu=-1")
    with pytest.raises(ValueError) as raised:
        constraintlab.run("ring", mu=-1)
    assert str(raised.value).startswith("mu=-1: mu: ")
    assert after_given(str(raised.value)) == after_given(expected)


def test_an_unknown_parameter_raises_value_error_naming_the_parameters():
    expected = cli_message("run", "ring", "--set", "nu=1")
    with pytest.raises(ValueError) as raised:
        constraintlab.run("ring", nu=1)
    assert after_given(str(raised.value)) == after_given(expected)


def test_a_setting_out_of_range_raises_value_error_with_the_cli_reason():
    expected = cli_message("run", "ring", "--dt", "-1")
    with pytest.raises(ValueError) as raised:
        constraintlab.run("ring", dt=-1)
    assert str(raised.value).startswith("dt=-1: ")
    assert after_given(str(raised.value)) == after_given(expected)


def test_a_bad_scene_file_raises_the_cli_message_as_is(tmp_path):
    scene = tmp_path / "bad.json"
    scene.write_text('{"format": 1, "scene": "ring", "parameters": {"mu": "much"}}')
    expected = cli_message("run", str(scene))
    with pytest.raises(ValueError) as raised:
        constraintlab.load(str(scene)).run()
    assert str(raised.value) == expected
    assert "parameters.mu" in str(raised.value)


def test_an_unknown_scene_raises_the_cli_message():
    expected = cli_message("run", "no-such-scene")
    with pytest.raises(ValueError) as raised:
        constraintlab.load("no-such-scene")
    assert str(raised.value) == expected


def test_a_missing_file_raises_os_error_with_the_cli_message():
    expected = cli_message("run", "missing/scene.json")
    with pytest.raises(OSError) as raised:
        constraintlab.load("missing/scene.json")
    assert str(raised.value) == expected


def test_a_value_that_is_no_number_raises_type_error_naming_it():
    with pytest.raises(TypeError, match="mu='much': not a number"):
        constraintlab.run("ring", mu="much")


def test_derive_of_a_built_in_scene_raises_the_cli_message():
    expected = cli_message("derive", "ring")
    with pytest.raises(ValueError) as raised:
        constraintlab.load("ring").derive()
    assert str(raised.value) == expected
