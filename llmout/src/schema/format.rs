//! The `format` values llmout checks: small hand-written checks, one per format.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A string `format` llmout checks. Any other `format` (`int32`, `double`, `uint8`, which
/// schemars writes for numbers; `regex`, `iri`, ...) is an annotation and not checked.
///
/// | format | accepts |
/// |---|---|
/// | `email` | `local@domain` (RFC 5321): a dot-atom local part of at most 64 characters (letters, digits, ``!#$%&'*+/=?^_`{|}~-``, single dots not at either end) or a quoted one; the domain a hostname, `[IPv4]` or `[IPv6:…]` |
/// | `hostname` | labels of letters, digits and `-` (not first or last), 1-63 characters each, at most 253 in all |
/// | `uri` | an absolute URI (RFC 3986): a scheme (a letter, then letters, digits, `+`, `-`, `.`), `:`, then only URI characters (ASCII, no spaces or ``"<>\^`{|}``) with `%` followed by two hex digits, at most one `#`; after `//`, a port is digits and a `[…]` host an IPv6 or `v…` address |
/// | `date` | `YYYY-MM-DD` (RFC 3339 full-date) with a day that exists (leap years counted) |
/// | `time` | `HH:MM:SS`, optional fraction, then `Z` or `±HH:MM` (RFC 3339 full-time); second 60 only at 23:59 UTC |
/// | `date-time` | a `date`, `T` (or `t`), a `time` |
/// | `uuid` | 8-4-4-4-12 hex digits with hyphens, any version |
/// | `ipv4` | four decimal numbers 0-255 without leading zeros, dotted |
/// | `ipv6` | RFC 4291 text (`::` shortening, a dotted IPv4 tail), no zone (`%eth0`) |
/// | `ip` (what schemars writes for `#[schemars(ip)]`) | `ipv4` or `ipv6` |
///
/// ```
/// use llmout::schema::Format;
/// assert!(Format::Email.accepts("ada@example.com"));
/// assert!(!Format::Email.accepts("ada at example.com"));
/// assert!(Format::Date.accepts("2024-02-29"));
/// assert!(!Format::Date.accepts("2023-02-29"));
/// assert_eq!(Format::from_name("date-time"), Some(Format::DateTime));
/// assert_eq!(Format::from_name("int32"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `email`
    Email,
    /// `hostname`
    Hostname,
    /// `uri`
    Uri,
    /// `date`
    Date,
    /// `time`
    Time,
    /// `date-time`
    DateTime,
    /// `uuid`
    Uuid,
    /// `ipv4`
    Ipv4,
    /// `ipv6`
    Ipv6,
    /// `ip`: IPv4 or IPv6
    Ip,
}

impl Format {
    /// The format of a `format` value, if llmout checks it.
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "uri" => Format::Uri,
            "date" => Format::Date,
            "time" => Format::Time,
            "date-time" => Format::DateTime,
            "uuid" => Format::Uuid,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "ip" => Format::Ip,
            _ => return None,
        })
    }

    /// The `format` value.
    pub fn name(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Uri => "uri",
            Format::Date => "date",
            Format::Time => "time",
            Format::DateTime => "date-time",
            Format::Uuid => "uuid",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Ip => "ip",
        }
    }

    /// What a string of the format is, in words: "an email address", "a date (YYYY-MM-DD)".
    pub fn describe(self) -> &'static str {
        match self {
            Format::Email => "an email address",
            Format::Hostname => "a hostname",
            Format::Uri => "an absolute URI",
            Format::Date => "a date (YYYY-MM-DD)",
            Format::Time => "a time (HH:MM:SS with Z or an offset)",
            Format::DateTime => "a date and time (RFC 3339, YYYY-MM-DDTHH:MM:SSZ)",
            Format::Uuid => "a UUID",
            Format::Ipv4 => "an IPv4 address",
            Format::Ipv6 => "an IPv6 address",
            Format::Ip => "an IP address",
        }
    }

    /// Whether `s` is a string of this format (see the table above). Linear in `s`.
    pub fn accepts(self, s: &str) -> bool {
        match self {
            Format::Email => email(s),
            Format::Hostname => hostname(s),
            Format::Uri => uri(s),
            Format::Date => date(s.as_bytes()),
            Format::Time => time(s.as_bytes()),
            Format::DateTime => date_time(s.as_bytes()),
            Format::Uuid => uuid(s.as_bytes()),
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<Ipv6Addr>().is_ok(),
            Format::Ip => s.parse::<Ipv4Addr>().is_ok() || s.parse::<Ipv6Addr>().is_ok(),
        }
    }
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = if let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        quoted_local(quoted)
    } else {
        !local.is_empty()
            && local
                .split('.')
                .all(|atom| !atom.is_empty() && atom.bytes().all(atext))
    };
    let domain_ok =
        if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
            match literal.strip_prefix("IPv6:") {
                Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
                None => literal.parse::<Ipv4Addr>().is_ok(),
            }
        } else {
            hostname(domain)
        };
    local.len() <= 64 && local_ok && domain_ok
}

/// RFC 5322 `atext`.
fn atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)
}

/// The inside of a quoted local part: printable ASCII, `"` and `\` only escaped.
fn quoted_local(q: &str) -> bool {
    let mut bytes = q.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => {
                if !bytes.next().is_some_and(|e| (b' '..=b'~').contains(&e)) {
                    return false;
                }
            }
            b'"' => return false,
            b' '..=b'~' => {}
            _ => return false,
        }
    }
    true
}

fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            (1..=63).contains(&b.len())
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b));
    if !scheme_ok || rest.matches('#').count() > 1 || !uri_chars(rest) {
        return false;
    }
    let Some(after) = rest.strip_prefix("//") else {
        // No authority: brackets belong only in a host.
        return !rest.contains(['[', ']']);
    };
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let (authority, path) = after.split_at(end);
    if path.contains(['[', ']']) {
        return false;
    }
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if let Some(bracketed) = host_port.strip_prefix('[') {
        let Some((host, port)) = bracketed.split_once(']') else {
            return false;
        };
        let host_ok = host.parse::<Ipv6Addr>().is_ok()
            || host
                .strip_prefix(['v', 'V'])
                .is_some_and(|f| f.contains('.'));
        return host_ok && port_ok(port.strip_prefix(':').unwrap_or(port), port.is_empty());
    }
    if authority
        .rsplit_once('@')
        .is_some_and(|(user, _)| user.contains(['[', ']']))
    {
        return false;
    }
    match host_port.rsplit_once(':') {
        Some((host, port)) => !host.contains(['[', ']', ':']) && port_ok(port, true),
        None => !host_port.contains(['[', ']']),
    }
}

/// A port: digits, or nothing when `may_be_empty`.
fn port_ok(port: &str, may_be_empty: bool) -> bool {
    (may_be_empty && port.is_empty())
        || (!port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
}

/// Only characters a URI may hold, and `%` always followed by two hex digits.
fn uri_chars(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
                {
                    return false;
                }
                i += 3;
                continue;
            }
            c if c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?#[]".contains(&c) => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

/// The number written by the ASCII digits `b` (all digits, at most 4).
fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, d| {
        d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
    })
}

fn date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..])) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339 `full-time`, a leap second only where it is 23:59:60 in UTC.
fn time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(s)) = (digits(&b[..2]), digits(&b[3..5]), digits(&b[6..8])) else {
        return false;
    };
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    let offset = match rest {
        b"Z" | b"z" => Some(0i64),
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            match (digits(&[*oh1, *oh2]), digits(&[*om1, *om2])) {
                (Some(oh), Some(om)) if oh <= 23 && om <= 59 => {
                    let minutes = i64::from(oh * 60 + om);
                    Some(if *sign == b'+' { minutes } else { -minutes })
                }
                _ => None,
            }
        }
        _ => None,
    };
    let Some(offset) = offset else { return false };
    if h > 23 || m > 59 || s > 60 {
        return false;
    }
    // 23:59:60 UTC is the only leap second.
    let utc = (i64::from(h * 60 + m) - offset).rem_euclid(24 * 60);
    s < 60 || utc == 23 * 60 + 59
}

fn date_time(b: &[u8]) -> bool {
    b.len() > 11 && matches!(b[10], b'T' | b't') && date(&b[..10]) && time(&b[11..])
}

fn uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::Format::{self, *};

    fn check(format: Format, good: &[&str], bad: &[&str]) {
        for g in good {
            assert!(format.accepts(g), "{} should accept {g:?}", format.name());
        }
        for b in bad {
            assert!(!format.accepts(b), "{} should refuse {b:?}", format.name());
        }
    }

    #[test]
    fn email() {
        check(
            Email,
            &[
                "ada@example.com",
                "a.b+tag@sub.example.org",
                "x@localhost",
                "\"a b\"@example.com",
                "\"a\\\"b\"@example.com",
                "o'neil@example.ie",
                "ada@[127.0.0.1]",
                "ada@[IPv6:::1]",
            ],
            &[
                "",
                "ada",
                "@example.com",
                "ada@",
                "ada at example.com",
                ".ada@example.com",
                "ada.@example.com",
                "a..b@example.com",
                "ada@-example.com",
                "ada@exa_mple.com",
                "ada@example..com",
                "ada lovelace@example.com",
                "ådå@example.com",
                "ada@[300.0.0.1]",
                "\"a\"b\"@example.com",
                &format!("{}@example.com", "a".repeat(65)),
            ],
        );
    }

    #[test]
    fn hostname() {
        check(
            Hostname,
            &["example.com", "a", "xn--bcher-kva.example", "a-b.c1"],
            &[
                "",
                "-a.com",
                "a-.com",
                "a..com",
                "a.com.",
                "a b.com",
                &"a".repeat(64),
                &["a"; 128].join("."),
            ],
        );
    }

    #[test]
    fn uri() {
        check(
            Uri,
            &[
                "https://example.com",
                "https://user:pw@example.com:8080/a/b?q=1&r=%20#frag",
                "mailto:ada@example.com",
                "urn:isbn:0451450523",
                "file:///etc/hosts",
                "http://[::1]:80/",
                "http://[v1.fe80::a+en1]/",
                "tel:+1-816-555-1212",
                "a+b.c-d:x",
            ],
            &[
                "",
                "example.com",
                "/relative/path",
                "//example.com",
                "1http://x",
                "http://exa mple.com",
                "http://example.com/%zz",
                "http://example.com/%2",
                "http://example.com/#a#b",
                "http://example.com:80a/",
                "http://[::1/",
                "http://[not-ip]/",
                "http://example.com/a[b]",
                "http://x/\"q\"",
                "http://exämple.com",
                "mailto:a[b]",
            ],
        );
    }

    #[test]
    fn dates_and_times() {
        check(
            Date,
            &["2024-01-31", "2024-02-29", "2000-02-29", "0000-01-01"],
            &[
                "2023-02-29",
                "1900-02-29",
                "2024-04-31",
                "2024-13-01",
                "2024-00-10",
                "2024-01-00",
                "2024-1-01",
                "24-01-01",
                "2024/01/01",
                "２０２４-01-01",
                "2024-01-01T00:00:00Z",
            ],
        );
        check(
            Time,
            &[
                "12:34:56Z",
                "12:34:56.789z",
                "00:00:00+01:00",
                "23:59:60Z",
                "22:59:60-01:00",
            ],
            &[
                "12:34:56",
                "24:00:00Z",
                "12:60:00Z",
                "12:34:61Z",
                "22:59:60Z",
                "12:34:56.Z",
                "12:34:56+1:00",
                "12:34:56+24:00",
                "1:02:03Z",
            ],
        );
        check(
            DateTime,
            &[
                "2024-05-01T12:00:00Z",
                "2024-05-01t12:00:00.5+02:00",
                "1990-12-31T23:59:60Z",
            ],
            &[
                "2024-05-01 12:00:00Z",
                "2024-05-01T12:00:00",
                "2024-02-30T12:00:00Z",
                "2024-05-01",
                "2024-05-01T",
            ],
        );
    }

    #[test]
    fn uuids_and_addresses() {
        check(
            Uuid,
            &[
                "123e4567-e89b-12d3-a456-426614174000",
                "00000000-0000-0000-0000-000000000000",
                "ABCDEF01-2345-6789-ABCD-EF0123456789",
            ],
            &[
                "123e4567e89b12d3a456426614174000",
                "123e4567-e89b-12d3-a456-42661417400",
                "123e4567-e89b-12d3-a456-42661417400g",
                "{123e4567-e89b-12d3-a456-426614174000}",
            ],
        );
        check(
            Ipv4,
            &["127.0.0.1", "0.0.0.0", "255.255.255.255"],
            &[
                "256.0.0.1",
                "01.2.3.4",
                "1.2.3",
                "1.2.3.4.5",
                "::1",
                "١.2.3.4",
            ],
        );
        check(
            Ipv6,
            &["::1", "::", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4", "fe80::1"],
            &["1::2::3", "12345::", "fe80::1%eth0", "127.0.0.1", ":1"],
        );
        check(Ip, &["127.0.0.1", "::1"], &["localhost", "1.2.3"]);
    }

    #[test]
    fn names_round_trip() {
        for f in [
            Email, Hostname, Uri, Date, Time, DateTime, Uuid, Ipv4, Ipv6, Ip,
        ] {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        for annotation in ["int32", "uint8", "double", "regex", "iri", ""] {
            assert_eq!(Format::from_name(annotation), None);
        }
    }
}
