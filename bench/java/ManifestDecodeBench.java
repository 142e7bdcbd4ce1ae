// SPDX-License-Identifier: Apache-2.0
// Iceberg Java 1.11 core's manifest decode on the manifests bench_avro_manifest keeps
// (FLOE_BENCH_KEEP=DIR): ManifestFiles.read over DIR/m-<codec>.avro, every entry iterated,
// JIT warmed by WARMUP passes, then the median of RUNS. Prints
//   BENCH avro_manifest_decode_<codec>_java <median ms> ms
//   java -cp "$HOME/.cache/floe-peers/core-jars/*" bench/java/ManifestDecodeBench.java DIR
import java.io.File;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Files;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

public class ManifestDecodeBench {
  static final int WARMUP = 3, RUNS = 5;
  static final long SNAPSHOT_ID = 1234567890123L;

  static class LocalIO implements FileIO {
    public InputFile newInputFile(String p) { return Files.localInput(p.replaceFirst("^file:", "")); }
    public OutputFile newOutputFile(String p) { return Files.localOutput(p.replaceFirst("^file:", "")); }
    public void deleteFile(String p) { new File(p.replaceFirst("^file:", "")).delete(); }
  }

  static ManifestFile manifest(String path, long len) {
    return (ManifestFile) Proxy.newProxyInstance(ManifestFile.class.getClassLoader(),
        new Class<?>[] {ManifestFile.class}, (proxy, m, a) -> {
          switch (m.getName()) {
            case "path": return path;
            case "length": return len;
            case "partitionSpecId": return 0;
            case "content": return ManifestContent.DATA;
            case "sequenceNumber": case "minSequenceNumber": return 0L;
            case "snapshotId": return SNAPSHOT_ID; // the fixture writer's (gen_fixture.h)
            case "hashCode": return path.hashCode();
            case "equals": return proxy == a[0];
            case "toString": return path;
            default:
              if (m.isDefault()) return java.lang.reflect.InvocationHandler.invokeDefault(proxy, m, a);
              return null;
          }
        });
  }

  public static void main(String[] args) throws Exception {
    FileIO io = new LocalIO();
    for (String codec : new String[] {"null", "deflate"}) {
      File f = new File(args[0], "m-" + codec + ".avro");
      ManifestFile mf = manifest(f.getPath(), f.length());
      long[] ns = new long[RUNS];
      long n = 0;
      for (int i = 0; i < WARMUP + RUNS; i++) {
        long t0 = System.nanoTime(), sum = 0;
        n = 0;
        try (ManifestReader<DataFile> r = ManifestFiles.read(mf, io)) {
          for (DataFile d : r) {
            sum += d.recordCount() + (d.lowerBounds() == null ? 0 : d.lowerBounds().size());
            n++;
          }
        }
        if (i >= WARMUP) ns[i - WARMUP] = System.nanoTime() - t0;
      }
      Arrays.sort(ns);
      System.out.printf("BENCH avro_manifest_decode_%s_java %.2f ms (%d live entries yielded of the file's 100000)%n", codec,
          ns[RUNS / 2] / 1e6, n);
    }
  }
}
