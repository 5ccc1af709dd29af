"""The token is a secret, so the client checks it before sending it (http.client's own complaint
about a bad header value quotes the value whole) and hides it in any text it shows, a server's
error answer included: messages give its length, never the token or any part of it."""


def token_problem(token):
    """Why `token` cannot go in an Authorization header, or None when it can."""
    for i, ch in enumerate(token):
        if "!" <= ch <= "~":
            continue
        what = "a line ending" if ch in "\r\n" else "a space" if ch == " " else "a control or non-ASCII character"
        hint = " (was it read with its line ending?)" if ch in "\r\n" and not token[i:].strip() else ""
        return (f"the token ({len(token)} characters) has {what} at character {i + 1}, which an HTTP "
                f"header cannot carry{hint}")
    return None


def hide_token(text, token):
    """`text` with every copy of the token replaced by <token: N characters>."""
    return text.replace(token, f"<token: {len(token)} characters>") if token else text
