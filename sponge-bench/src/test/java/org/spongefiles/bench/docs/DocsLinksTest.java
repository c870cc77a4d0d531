package org.spongefiles.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and image in README.md and docs/ (docs/results holds outputs, not pages)
 * reaches an existing file, and a link's #anchor a heading of the page it names.
 */
class DocsLinksTest {
  @Test
  void everyRelativeLinkReachesAFileAndItsAnchor() {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path page : MarkdownDocs.allPages()) {
      List<String> lines = MarkdownDocs.proseLines(page);
      for (int i = 0; i < lines.size(); i++) {
        for (String target : MarkdownDocs.targets(lines.get(i), false)) {
          if (MarkdownDocs.isExternal(target)) {
            continue;
          }
          links++;
          String problem = problem(page, target);
          if (problem != null) {
            broken.add(where(page, i) + ": " + target + " (" + problem + ")");
          }
        }
      }
    }
    assertThat(broken).as("broken links among %d", links).isEmpty();
    assertThat(links).isGreaterThan(100);
  }

  @Test
  void performancePageShowsItsPlotsFromExistingFiles() {
    Path page = MarkdownDocs.root().resolve("docs").resolve("performance.md");
    List<String> images = new ArrayList<>();
    Set<String> broken = new LinkedHashSet<>();
    List<String> lines = MarkdownDocs.proseLines(page);
    for (int i = 0; i < lines.size(); i++) {
      for (String target : MarkdownDocs.targets(lines.get(i), true)) {
        images.add(target);
        if (MarkdownDocs.isExternal(target) || !Files.isRegularFile(resolve(page, target))) {
          broken.add(where(page, i) + ": " + target + " (no such file)");
        }
      }
      for (String target : MarkdownDocs.targets(lines.get(i), false)) {
        if (!MarkdownDocs.isExternal(target) && problem(page, target) != null) {
          broken.add(where(page, i) + ": " + target + " (" + problem(page, target) + ")");
        }
      }
    }
    assertThat(broken).isEmpty();
    assertThat(images)
        .as("plots shown inline")
        .allMatch(image -> image.startsWith("results/") && image.endsWith(".png"))
        .filteredOn(image -> image.startsWith("results/node-sweep/"))
        .hasSizeGreaterThanOrEqualTo(6);
  }

  private static String problem(Path page, String target) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved = file.isEmpty() ? page : resolve(page, file);
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (hash >= 0 && resolved.toString().endsWith(".md")) {
      String anchor = target.substring(hash + 1);
      if (!MarkdownDocs.anchors(resolved).contains(anchor)) {
        return "no heading with anchor #" + anchor;
      }
    }
    return null;
  }

  private static Path resolve(Path page, String target) {
    return page.getParent().resolve(target).normalize();
  }

  private static String where(Path page, int index) {
    return MarkdownDocs.root().relativize(page) + ":" + (index + 1);
  }
}
