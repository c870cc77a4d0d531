package org.spongefiles.pigtez;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.POPackage;
import org.apache.pig.impl.plan.OperatorKey;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The rewrite of the real class, Pig 0.18.0's POShuffleTezLoad from the Pig jar on the classpath:
 * the build is the one the agent knows; the patched class differs from Pig's by the bag
 * construction alone and links (the JVM verifies it); another build of the class loads but fails
 * its task at start naming the jar and both hashes.
 */
class ShuffleLoadPatchTest {
  private static final String NAME = PigShuffleLoad.INTERNAL_NAME.replace('/', '.');

  @Test
  void thePigOnTheClasspathIsTheBuildTheAgentKnows() throws IOException {
    assertThat(PigShuffleLoad.KNOWN_SHA256).contains(ShuffleLoadTransformer.sha256(pigClass()));
  }

  @Test
  void onlyTheBagConstructionChanges() throws IOException {
    Map<String, List<String>> pig = instructions(pigClass());
    Map<String, List<String>> patched = instructions(ShuffleLoadPatch.patch(pigClass()));
    assertThat(patched.keySet()).isEqualTo(pig.keySet());
    String building = PigShuffleLoad.BUILDING_METHOD;
    List<String> expected = new ArrayList<>();
    List<String> original = pig.get(building);
    for (int i = 0; i < original.size(); i++) {
      String insn = original.get(i);
      if (insn.equals(InstructionText.text(Opcodes.NEW, PigShuffleLoad.BAG))) {
        assertThat(original.get(i + 1)).isEqualTo(InstructionText.text(Opcodes.DUP, null));
        i++;
      } else if (insn.startsWith(InstructionText.text(Opcodes.INVOKESPECIAL, PigShuffleLoad.BAG))) {
        expected.add(
            InstructionText.text(
                Opcodes.INVOKESTATIC,
                "org/spongefiles/pigtez/TezGroupBags.newGroupBag(I)Lorg/apache/pig/data/DataBag;"));
      } else {
        expected.add(insn);
      }
    }
    assertThat(patched.get(building)).isEqualTo(expected).isNotEqualTo(original);
    assertThat(String.join("\n", patched.get(building))).doesNotContain(PigShuffleLoad.BAG);
    pig.keySet().stream()
        .filter(m -> !m.equals(building))
        .forEach(m -> assertThat(patched.get(m)).as(m).isEqualTo(pig.get(m)));
  }

  @Test
  void thePatchedClassLinks() throws Exception {
    Class<?> type = load(ShuffleLoadTransformer.rewrite(pigClass(), "pig.jar"));
    assertThat(type.getClassLoader()).isInstanceOf(OneClassLoader.class);
    Object load = type.getConstructor(POPackage.class).newInstance(newPackage());
    assertThat(load.getClass().getSuperclass()).isEqualTo(POPackage.class);
  }

  @Test
  void anotherBuildFailsItsTaskAtStartNamingTheJarAndTheHashes() throws Exception {
    // The same class written again by ASM: equal code, other bytes, as a rebuild of Pig would be.
    ClassWriter rewritten = new ClassWriter(0);
    new ClassReader(pigClass()).accept(rewritten, 0);
    byte[] other = rewritten.toByteArray();
    String sha256 = ShuffleLoadTransformer.sha256(other);
    assertThat(PigShuffleLoad.KNOWN_SHA256).doesNotContain(sha256);

    Class<?> type = load(ShuffleLoadTransformer.rewrite(other, "file:/opt/pig/pig-other.jar"));
    Object load = type.getConstructor(POPackage.class).newInstance(newPackage());
    assertThatThrownBy(
            () -> {
              try {
                type.getMethod(PigShuffleLoad.STARTING_METHOD, Map.class, Configuration.class)
                    .invoke(load, Map.of(), new Configuration(false));
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            })
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(NAME + " from file:/opt/pig/pig-other.jar has SHA-256 " + sha256)
        .hasMessageContaining(PigShuffleLoad.KNOWN_SHA256.get(0))
        .hasMessageContaining("Pig 0.18.0");
  }

  @Test
  void otherClassesPassUntouched() throws IOException {
    byte[] pig = pigClass();
    assertThat(
            new ShuffleLoadTransformer()
                .transform(null, "org/apache/pig/data/InternalCachedBag", null, null, pig))
        .isNull();
  }

  private static POPackage newPackage() {
    return new POPackage(new OperatorKey("scope", 1));
  }

  static byte[] pigClass() throws IOException {
    try (InputStream in =
        POPackage.class
            .getClassLoader()
            .getResourceAsStream(PigShuffleLoad.INTERNAL_NAME + ".class")) {
      assertThat(in).as("Pig's POShuffleTezLoad on the test classpath").isNotNull();
      return in.readAllBytes();
    }
  }

  /** Each method's instructions as text, by name and descriptor. */
  private static Map<String, List<String>> instructions(byte[] classfile) {
    Map<String, List<String>> methods = new LinkedHashMap<>();
    new ClassReader(classfile)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String signature, String[] exceptions) {
                List<String> insns = new ArrayList<>();
                methods.put(
                    name.equals(PigShuffleLoad.BUILDING_METHOD) ? name : name + desc, insns);
                return new InstructionText(insns);
              }
            },
            ClassReader.SKIP_DEBUG);
    return methods;
  }

  private static Class<?> load(byte[] classfile) throws ClassNotFoundException {
    return Class.forName(NAME, true, new OneClassLoader(classfile));
  }

  /** Defines POShuffleTezLoad from the given bytes, everything else from the test's loader. */
  private static final class OneClassLoader extends ClassLoader {
    private final byte[] classfile;

    OneClassLoader(byte[] classfile) {
      super(ShuffleLoadPatchTest.class.getClassLoader());
      this.classfile = classfile;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.equals(NAME)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> type = findLoadedClass(name);
        return type != null ? type : defineClass(name, classfile, 0, classfile.length);
      }
    }
  }
}
