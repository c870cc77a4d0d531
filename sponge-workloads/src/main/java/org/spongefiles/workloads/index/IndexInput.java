package org.spongefiles.workloads.index;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The documents {@link IndexJob} indexes, as text files of one {@code <doc>\t<word> <word> ...}
 * line per document, replayable without the files (which is how {@link IndexReference} computes the
 * answer). Every document has {@value #WORDS} words; each is the hot term {@value #HOT_TERM} with
 * probability {@value #HOT_SHARE}, else one of {@value #VOCABULARY} terms {@code t0000..t4999}
 * drawn uniformly, so the hot term's reducer gets about 60% of the postings and the others share
 * the rest.
 */
public final class IndexInput {
  public static final String HOT_TERM = "the";
  public static final int WORDS = 8;
  public static final double HOT_SHARE = 0.6;
  public static final int VOCABULARY = 5000;

  private final long documents;
  private final long seed;

  public IndexInput(long documents, long seed) {
    this.documents = documents;
    this.seed = seed;
  }

  public long documents() {
    return documents;
  }

  /** The words of document {@code doc}, in order. */
  public String[] words(long doc) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + doc);
    String[] words = new String[WORDS];
    for (int i = 0; i < WORDS; i++) {
      words[i] =
          random.nextDouble() < HOT_SHARE
              ? HOT_TERM
              : String.format(Locale.ROOT, "t%04d", random.nextInt(VOCABULARY));
    }
    return words;
  }

  /**
   * Writes the documents into {@code files} files under {@code dir} (document d into file d mod
   * files, so that each map gets a share), returns them.
   */
  public List<Path> write(Path dir, int files) throws IOException {
    Files.createDirectories(dir);
    List<Path> paths = new ArrayList<>();
    List<BufferedWriter> writers = new ArrayList<>();
    try {
      for (int f = 0; f < files; f++) {
        Path path = dir.resolve(String.format(Locale.ROOT, "docs-%02d.txt", f));
        paths.add(path);
        writers.add(Files.newBufferedWriter(path, StandardCharsets.UTF_8));
      }
      for (long doc = 0; doc < documents; doc++) {
        BufferedWriter out = writers.get((int) (doc % files));
        out.write(Long.toString(doc));
        out.write('\t');
        out.write(String.join(" ", words(doc)));
        out.write('\n');
      }
    } finally {
      IOException failure = null;
      for (BufferedWriter writer : writers) {
        try {
          writer.close();
        } catch (IOException e) {
          failure = failure == null ? e : failure;
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
    return paths;
  }
}
