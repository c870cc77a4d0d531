package org.spongefiles.core.tier;

import java.io.IOException;
import java.util.List;

/** No tier could take a chunk. The message names every tier tried and what it had left. */
public class AllTiersFullException extends IOException {
  private static final long serialVersionUID = 1L;

  public AllTiersFullException(FileKey file, int chunk, int bytes, List<String> tierReports) {
    super(
        "No tier could take chunk "
            + chunk
            + " ("
            + bytes
            + " bytes) of "
            + file
            + ": "
            + String.join("; ", tierReports));
  }
}
