package org.spongefiles.testkit.data.bdb;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Rankings and UserVisits rows shaped like the Berkeley Big Data Benchmark's tables (the workload
 * of the Leaky Buffer evaluation), generated deterministically: row {@code i} depends only on the
 * seed and {@code i}, so any process can regenerate any slice, and tests can compute references
 * independently.
 *
 * <p>Shapes: {@code pages} distinct page URLs of 20 to 80 random lowercase letters, one Rankings
 * row per page; each UserVisits row visits a page drawn uniformly (about {@code visits / pages}
 * visits per page, like the benchmark's 8.6), from an IP in one of {@code subnets} /24 subnets,
 * with a user agent, country and language from small lists, a search word from a 5,000-word
 * vocabulary and a date between 1995 and 2010.
 */
public final class BdbGenerator {
  private static final String[] AGENTS = {
    "Mozilla/5.0 (Windows NT 6.1; WOW64)",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9)",
    "Opera/9.80 (X11; Linux x86_64)",
    "Mozilla/4.0 (compatible; MSIE 8.0)",
    "Mozilla/5.0 (X11; Ubuntu; Linux i686)",
    "Googlebot/2.1",
    "Lynx/2.8.8",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 7_0)",
    "Safari/537.36",
    "Wget/1.15"
  };
  private static final String[] COUNTRIES = {
    "USA", "DEU", "FRA", "GBR", "BRA", "JPN", "CHN", "IND", "CAN", "AUS", "ITA", "ESP", "MEX",
    "KOR", "RUS", "NLD", "SWE", "CHE", "POL", "ARG"
  };
  private static final String[] LANGUAGES = {
    "ENG-US", "DEU-DE", "FRA-FR", "ENG-GB", "POR-BR", "JPN-JP", "ZHO-CN", "HIN-IN", "ENG-CA",
    "ITA-IT", "SPA-ES", "SPA-MX", "KOR-KR", "RUS-RU"
  };
  private static final int WORDS = 5_000;

  private final long seed;
  private final int pages;
  private final int subnets;

  public BdbGenerator(long seed, int pages, int subnets) {
    if (pages < 1) {
      throw new IllegalArgumentException("pages must be at least 1, not " + pages);
    }
    if (subnets < 1) {
      throw new IllegalArgumentException("subnets must be at least 1, not " + subnets);
    }
    this.seed = seed;
    this.pages = pages;
    this.subnets = subnets;
  }

  public int pages() {
    return pages;
  }

  /** The URL of page {@code page}. */
  public String url(int page) {
    SplittableRandom random = random(0x5EEDL, page);
    char[] chars = new char[20 + random.nextInt(61)];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }

  /** The Rankings row of page {@code page}. */
  public Ranking ranking(int page, Ranking into) {
    SplittableRandom random = random(0xA4AL, page);
    return into.set(url(page), 1 + random.nextInt(10_000), 1 + random.nextInt(100));
  }

  /** UserVisits row {@code index}. */
  public UserVisit visit(long index, UserVisit into) {
    SplittableRandom random = random(0x7151L, index);
    int subnet = random.nextInt(subnets);
    String ip = subnetOf(subnet) + "." + random.nextInt(256);
    String date =
        String.format(
            Locale.ROOT,
            "%04d-%02d-%02d",
            1995 + random.nextInt(16),
            1 + random.nextInt(12),
            1 + random.nextInt(28));
    return into.set(
        ip,
        url(random.nextInt(pages)),
        date,
        Math.round(random.nextDouble() * 100_000) / 100f,
        AGENTS[random.nextInt(AGENTS.length)],
        COUNTRIES[random.nextInt(COUNTRIES.length)],
        LANGUAGES[random.nextInt(LANGUAGES.length)],
        word(random.nextInt(WORDS)),
        1 + random.nextInt(10_000));
  }

  /**
   * The /24 subnet of UserVisits row {@code index}'s source IP, as {@link #visit} gives it, without
   * building the rest of the row.
   */
  public String subnet(long index) {
    return subnetOf(random(0x7151L, index).nextInt(subnets));
  }

  /**
   * The country code of UserVisits row {@code index}, as {@link #visit} gives it, without building
   * the rest of the row: the same draws, in the same order, up to the country.
   */
  public String countryCode(long index) {
    SplittableRandom random = random(0x7151L, index);
    random.nextInt(subnets);
    random.nextInt(256);
    random.nextInt(16);
    random.nextInt(12);
    random.nextInt(28);
    random.nextInt(pages);
    random.nextDouble();
    random.nextInt(AGENTS.length);
    return COUNTRIES[random.nextInt(COUNTRIES.length)];
  }

  private static String subnetOf(int subnet) {
    return (1 + subnet % 223) + "." + (subnet / 223 % 256) + "." + (subnet / 223 / 256 % 256);
  }

  /** The /24 subnet of a dotted IPv4 address ({@code 10.1.2.3 -> 10.1.2}). */
  public static String subnet(String ip) {
    return ip.substring(0, ip.lastIndexOf('.'));
  }

  /** Writes {@code pages} Rankings rows and {@code visits} UserVisits rows as CSV files. */
  public void writeCsv(Path rankings, Path userVisits, long visits) throws IOException {
    Ranking ranking = new Ranking();
    try (BufferedWriter out = Files.newBufferedWriter(rankings, StandardCharsets.UTF_8)) {
      for (int page = 0; page < pages; page++) {
        out.write(ranking(page, ranking).toCsv());
        out.newLine();
      }
    }
    UserVisit visit = new UserVisit();
    try (BufferedWriter out = Files.newBufferedWriter(userVisits, StandardCharsets.UTF_8)) {
      for (long i = 0; i < visits; i++) {
        out.write(visit(i, visit).toCsv());
        out.newLine();
      }
    }
  }

  private String word(int index) {
    SplittableRandom random = random(0x30DL, index);
    char[] chars = new char[4 + random.nextInt(9)];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }

  private SplittableRandom random(long stream, long index) {
    return new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ stream * 0xC2B2AE3D27D4EB4FL ^ index);
  }
}
