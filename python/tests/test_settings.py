"""connect()'s host and token resolution, against the CLI's rules (client/settings.cpp), and the
fleet's hosts file (client/fleet_hosts.cpp)."""
import pytest

import jetperf
from jetperf import _hosts, _settings
from jetperf._settings import Endpoint, parse_endpoint


@pytest.mark.parametrize("text,host,port", [
    ("orin1:7071", "orin1", 7071), ("orin1", "orin1", 7070), ("http://10.0.0.2:80/v1", "10.0.0.2", 80),
    ("[::1]:7070", "::1", 7070), ("  localhost:1  ", "localhost", 1)])
def test_endpoints_parse_as_the_cli_parses_them(text, host, port):
    assert parse_endpoint(text) == Endpoint(host, port)


@pytest.mark.parametrize("text", ["https://a:1", "a:0", "a:70000", "a:x", ":7070", "[::1"])
def test_bad_endpoints_are_refused(text):
    with pytest.raises(ValueError):
        parse_endpoint(text)


def test_ipv6_urls_are_bracketed():
    assert Endpoint("::1", 7070).url() == "http://[::1]:7070"


def test_the_argument_beats_the_environment_which_beats_the_config(tmp_path):
    (tmp_path / "jetperf").mkdir()
    (tmp_path / "jetperf" / "config").write_text("# mine\nhost = cfg:1 # comment\ntoken = cfgtok\n")
    env = {"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/nonexistent"}
    assert _settings.resolve(None, None, env) == (Endpoint("cfg", 1), "cfgtok")
    env.update(JETPERF_HOST="envhost:2", JETPERF_TOKEN="envtok")
    assert _settings.resolve(None, None, env) == (Endpoint("envhost", 2), "envtok")
    assert _settings.resolve("arg:3", "argtok", env) == (Endpoint("arg", 3), "argtok")


def test_token_file_in_the_config_is_read_and_an_unreadable_one_is_an_error(tmp_path):
    (tmp_path / "jetperf").mkdir()
    (tmp_path / "tok").write_text("filetok\nsecond line\n")
    (tmp_path / "jetperf" / "config").write_text(f"host = b:9\ntoken_file = {tmp_path / 'tok'}\n")
    env = {"HOME": str(tmp_path.parent), "XDG_CONFIG_HOME": str(tmp_path)}
    assert _settings.resolve(None, None, env) == (Endpoint("b", 9), "filetok")
    (tmp_path / "jetperf" / "config").write_text(f"token_file = {tmp_path / 'missing'}\n")
    with pytest.raises(jetperf.JetperfError, match="cannot read token_file"):
        _settings.resolve(None, None, env)


def test_home_config_is_used_without_xdg_and_the_default_is_loopback_7070(tmp_path):
    (tmp_path / ".config" / "jetperf").mkdir(parents=True)
    (tmp_path / ".config" / "jetperf" / "config").write_text("host = home:5\n")
    assert _settings.resolve(None, "t", {"HOME": str(tmp_path)}) == (Endpoint("home", 5), "t")
    assert _settings.resolve(None, "t", {})[0] == Endpoint("127.0.0.1", 7070)


def test_connect_uses_the_environment(monkeypatch):
    monkeypatch.setenv("JETPERF_HOST", "example.org:7171")
    monkeypatch.setenv("JETPERF_TOKEN", "abc")
    b = jetperf.connect()
    assert (b.http.endpoint, b.http.token, b.name) == (Endpoint("example.org", 7171), "abc", "example.org:7171")


def test_hosts_file_lines_and_refusals():
    text = "# lab\norin1 = 10.0.0.1:7070\n\nxavier = xav:7070 /etc/tok  # with its token\n"
    assert _hosts.parse_hosts(text, "h") == [("orin1", "10.0.0.1:7070", None), ("xavier", "xav:7070", "/etc/tok")]
    for bad, message in [("x 10.0.0.1", "h:1: expected"), ("-x = a:1", "not a board name"),
                         ("x =", "has no address"), ("x = a:1 t extra", "unexpected 'extra'"),
                         ("x = a:1\nx = b:1", "listed twice")]:
        with pytest.raises(ValueError, match=message):
            _hosts.parse_hosts(bad, "h")


def test_a_missing_optional_package_names_the_debian_package(monkeypatch):
    import sys
    from jetperf import _optional
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(jetperf.MissingDependency, match="python3-matplotlib"):
        _optional.pyplot()
