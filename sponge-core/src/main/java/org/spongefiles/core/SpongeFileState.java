package org.spongefiles.core;

/** The life of a SpongeFile: written once, then read any number of times, then deleted. */
public enum SpongeFileState {
  /** Being written; it cannot be read yet. */
  WRITING("being written: it can be read only after its output stream is closed"),
  /** Written and closed; it can be read any number of times, or deleted. */
  CLOSED("closed: it was written and can now only be read or deleted"),
  /** Writing failed; the bytes are incomplete and it can only be deleted. */
  FAILED("failed while being written: its bytes are incomplete and it can only be deleted"),
  /** Deleted; its chunks are released and nothing more can be done with it. */
  DELETED("deleted: its chunks were released and it can no longer be used");

  private final String meaning;

  SpongeFileState(String meaning) {
    this.meaning = meaning;
  }

  /** What this state allows, as the end of a sentence. */
  public String meaning() {
    return meaning;
  }
}
