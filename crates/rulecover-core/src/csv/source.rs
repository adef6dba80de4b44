//! Where the bytes come from (a file or memory), the header, and the
//! record loop: blank lines skipped, ragged rows and invalid UTF-8
//! reported with the row. A source can be read more than once (a column
//! that turns out not to be numeric is read again as text).

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use csv::{ByteRecord, Reader, ReaderBuilder, Trim};

use crate::error::{Error, Result};

/// Bytes of a CSV table.
pub(super) enum Source<'a> {
    /// A file, opened afresh for every pass.
    File(&'a Path),
    /// Text held in memory.
    Bytes(&'a [u8]),
}

impl Source<'_> {
    fn reader(&self, delimiter: u8) -> Result<Reader<Box<dyn Read + '_>>> {
        let input: Box<dyn Read + '_> = match self {
            Source::File(path) => {
                Box::new(std::fs::File::open(path).map_err(|source| Error::Io {
                    path: path.to_path_buf(),
                    source,
                })?)
            }
            Source::Bytes(bytes) => Box::new(*bytes),
        };
        Ok(ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(Trim::All)
            .delimiter(delimiter)
            .buffer_capacity(1 << 16)
            .from_reader(input))
    }

    /// Opens the table: reads the header (names trimmed; a repeated name
    /// is [`Error::DuplicateColumn`]) and returns the data records.
    pub(super) fn open<'s>(&'s self, file: &'s str, delimiter: u8) -> Result<Records<'s>> {
        let mut reader = self.reader(delimiter)?;
        let mut record = ByteRecord::new();
        let has_header = reader
            .read_byte_record(&mut record)
            .map_err(|e| csv_error(file, 0, &e))?;
        if !has_header || record.is_empty() {
            return Err(Error::Empty {
                file: file.to_string(),
                what: "the file is empty (no header row)".into(),
            });
        }
        let header = record
            .iter()
            .map(|f| {
                std::str::from_utf8(f)
                    .map(str::to_string)
                    .map_err(|_| Error::Csv {
                        file: file.to_string(),
                        row: 0,
                        message: "the header is not valid UTF-8".into(),
                    })
            })
            .collect::<Result<Vec<String>>>()?;
        let mut seen = HashSet::with_capacity(header.len());
        if let Some(dup) = header.iter().find(|h| !seen.insert(h.as_str())) {
            return Err(Error::DuplicateColumn {
                file: file.to_string(),
                column: dup.clone(),
            });
        }
        Ok(Records {
            reader,
            record,
            file,
            header,
            rows: 0,
        })
    }
}

/// The data records of an opened table, one at a time.
pub(super) struct Records<'s> {
    reader: Reader<Box<dyn Read + 's>>,
    record: ByteRecord,
    file: &'s str,
    header: Vec<String>,
    rows: usize,
}

impl Records<'_> {
    /// The column names.
    pub(super) fn header(&self) -> &[String] {
        &self.header
    }

    /// Data rows read so far (the 1-based number of the current row).
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// Moves to the next data row; `false` at the end. A line holding
    /// nothing but blanks is skipped; a row with another number of fields
    /// than the header is [`Error::RaggedRow`].
    pub(super) fn advance(&mut self) -> Result<bool> {
        loop {
            let more = self
                .reader
                .read_byte_record(&mut self.record)
                .map_err(|e| csv_error(self.file, self.rows + 1, &e))?;
            if !more {
                return Ok(false);
            }
            if self.record.len() == 1 && self.record.get(0) == Some(b"") {
                continue;
            }
            self.rows += 1;
            if self.record.len() != self.header.len() {
                return Err(Error::RaggedRow {
                    file: self.file.to_string(),
                    row: self.rows,
                    expected: self.header.len(),
                    found: self.record.len(),
                });
            }
            return Ok(true);
        }
    }

    /// Field `column` of the current row, trimmed.
    pub(super) fn field(&self, column: usize) -> Result<&str> {
        let bytes = self.record.get(column).unwrap_or_default();
        std::str::from_utf8(bytes).map_err(|_| Error::Csv {
            file: self.file.to_string(),
            row: self.rows,
            message: format!("column '{}' is not valid UTF-8", self.header[column]),
        })
    }
}

fn csv_error(file: &str, row: usize, e: &csv::Error) -> Error {
    Error::Csv {
        file: file.to_string(),
        row,
        message: e.to_string(),
    }
}
