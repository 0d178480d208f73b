//! Position notation (docs/rules.md §2.5): `<south>/<north>/<store0>,<store1>/<side>`.

use super::RefPos;

pub(super) fn parse_count(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Err("empty count".to_string());
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("not a non-negative decimal count: {s:?}"));
    }
    s.parse::<u32>()
        .map_err(|_| format!("count too large: {s}"))
}

pub(super) fn parse_list(s: &str) -> Result<Vec<u32>, String> {
    s.split(',').map(parse_count).collect()
}

/// Parses `<south>/<north>/<store0>,<store1>/<side>`. Checks the syntax, equal row
/// lengths (at least 1), that a game-over position has empty pits, and that the total
/// fits in a `u32`. It does not check the game's hole range and does not normalise.
pub fn parse(s: &str) -> Result<RefPos, String> {
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() != 4 {
        return Err(format!(
            "expected 4 '/'-separated groups, got {}",
            parts.len()
        ));
    }
    let south = parse_list(parts[0])?;
    let north = parse_list(parts[1])?;
    if south.len() != north.len() {
        return Err(format!(
            "row lengths differ: {} and {}",
            south.len(),
            north.len()
        ));
    }
    let stores = parse_list(parts[2])?;
    if stores.len() != 2 {
        return Err(format!("expected 2 stores, got {}", stores.len()));
    }
    let to_move = match parts[3] {
        "S" => Some(0),
        "N" => Some(1),
        "-" => None,
        other => return Err(format!("bad side marker: {other:?}")),
    };
    let total: u64 = south
        .iter()
        .chain(north.iter())
        .chain(stores.iter())
        .map(|&c| c as u64)
        .sum();
    if total > u32::MAX as u64 {
        return Err("total seed count too large".to_string());
    }
    if to_move.is_none() && south.iter().chain(north.iter()).any(|&c| c != 0) {
        return Err("game-over position ('-') with seeds on the board".to_string());
    }
    Ok(RefPos {
        south,
        north,
        stores: [stores[0], stores[1]],
        to_move,
    })
}

pub fn format(p: &RefPos) -> String {
    let row = |r: &[u32]| {
        r.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let side = match p.to_move {
        Some(0) => "S",
        Some(_) => "N",
        None => "-",
    };
    format!(
        "{}/{}/{},{}/{}",
        row(&p.south),
        row(&p.north),
        p.stores[0],
        p.stores[1],
        side
    )
}
