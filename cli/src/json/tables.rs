//! The objects of `tables query | dump | info | build | verify`.

use super::base::*;
use schemars::JsonSchema;
use serde::Serialize;

/// `tables query`: a position's value from the tables.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_query")]
pub struct TablesQuery {
    #[serde(flatten)]
    pub head: PositionHead,
    pub value: i32,
    pub winner: Winner,
    pub future: i32,
    pub best: Vec<u8>,
    pub moves: Vec<MoveValue>,
}

impl Output for TablesQuery {
    const COMMANDS: &'static [&'static str] = &["tables query"];
}

/// One line of `tables dump --format jsonl`: no head (the game and layer are the command's
/// arguments, and a head on each of millions of lines would double the file).
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_dump_line")]
pub struct DumpLine {
    pub position: String,
    pub value: i32,
    pub best: Vec<u8>,
}

impl Output for DumpLine {
    const COMMANDS: &'static [&'static str] = &[];
}

/// `tables info`: every table file of a directory.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_info")]
pub struct TablesInfo {
    #[serde(flatten)]
    pub head: ToolHead,
    pub directory: String,
    /// How to build tables, when the directory has none; else null.
    pub message: Option<String>,
    /// Every table file, by name.
    pub files: Vec<InfoFile>,
    /// The readable files grouped by game, options and holes.
    pub sets: Vec<InfoSet>,
}

impl Output for TablesInfo {
    const COMMANDS: &'static [&'static str] = &["tables info"];
}

/// One file of `tables info`.
#[derive(Serialize, JsonSchema)]
pub struct InfoFile {
    pub file: String,
    /// Why the file cannot be read as a table; null when it can (then the fields below are set).
    pub error: Option<String>,
    pub table: Option<InfoTable>,
}

/// A readable table file's header and checks.
#[derive(Serialize, JsonSchema)]
pub struct InfoTable {
    pub game: String,
    pub options: Vec<String>,
    pub holes: u32,
    /// Seeds on the board.
    pub layer: u32,
    pub entries: u64,
    pub encoding: String,
    pub bytes: u64,
    /// Whether the payload's checksum matches.
    pub checksum_ok: bool,
    /// What is wrong: a bad checksum, a file name that disagrees with the header; empty when
    /// nothing is.
    pub problems: Vec<String>,
}

/// One set of tables (a game, options and holes) of `tables info`.
#[derive(Serialize, JsonSchema)]
pub struct InfoSet {
    pub game: String,
    pub options: Vec<String>,
    pub holes: u32,
    /// The layers on disk, in order.
    pub layers: Vec<u32>,
    /// The top of the unbroken run of layers from 0; null without layer 0.
    pub complete_to: Option<u32>,
    pub entries: u64,
    pub bytes: u64,
}

/// `tables build`: the layers built or kept.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_build")]
pub struct TablesBuild {
    #[serde(flatten)]
    pub head: Head,
    pub holes: u8,
    pub max_seeds: u32,
    pub directory: String,
    pub layers: Vec<BuiltLayer>,
    pub entries: u64,
    pub bytes: u64,
    pub bits_per_entry: f64,
    pub seconds: f64,
    /// The memory the build was estimated to need before it started, in bytes (the one a build
    /// too large for the machine is refused by).
    pub memory_estimate: u64,
    /// The process's peak resident memory (`VmHWM`), in bytes; null where the system does not
    /// say.
    pub peak_memory: Option<u64>,
}

impl Output for TablesBuild {
    const COMMANDS: &'static [&'static str] = &["tables build"];
}

/// One layer of `tables build`.
#[derive(Serialize, JsonSchema)]
pub struct BuiltLayer {
    pub layer: u32,
    pub entries: u64,
    pub encoding: String,
    pub exceptions: u64,
    pub bytes: u64,
    /// Whether a valid file was already there (kept, not rebuilt).
    pub resumed: bool,
    /// Why an existing file was rebuilt; null when none was.
    pub rebuilt_because: Option<String>,
    pub seconds: f64,
}

/// `tables verify`: checksums, then every entry re-derived from its children.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "tables_verify")]
pub struct TablesVerify {
    #[serde(flatten)]
    pub head: ToolHead,
    pub directory: String,
    /// Table files found.
    pub files: usize,
    /// Files whose framing, name and checksum are sound.
    pub checksums_ok: usize,
    /// What is wrong with each of the other files.
    pub bad_files: Vec<String>,
    pub sets: Vec<VerifiedSet>,
    /// Bad files, missing layers and wrong entries, counted.
    pub problems: u64,
    /// Whether every table verified (no problem).
    pub ok: bool,
}

impl Output for TablesVerify {
    const COMMANDS: &'static [&'static str] = &["tables verify"];
}

/// One set of `tables verify`.
#[derive(Serialize, JsonSchema)]
pub struct VerifiedSet {
    pub game: String,
    pub options: Vec<String>,
    pub holes: u32,
    /// How many layers, from 0, were re-derived.
    pub layers_verified: u32,
    pub entries: u64,
    pub seconds: f64,
    /// Missing or bad layers, and sets that cannot be checked.
    pub problems: Vec<String>,
    /// Examples of wrong entries.
    pub wrong: Vec<WrongEntry>,
    /// Wrong entries, counted.
    pub wrong_count: u64,
    pub ok: bool,
}

/// A wrong entry of `tables verify`: the table's store-independent numbers.
#[derive(Serialize, JsonSchema)]
pub struct WrongEntry {
    pub layer: u32,
    pub slot: u64,
    /// The slot's position; null when the slot holds none.
    pub position: Option<String>,
    pub stored: i32,
    pub derived: i32,
}
