// SPDX-License-Identifier: Apache-2.0
// A real Hive Metastore (Apache Hive 2.3.9, the metastore jars that ship in the pyspark
// wheel, pinned by scripts/peers-setup.sh) on 127.0.0.1 with an embedded Derby database,
// for tests/peers/test_hms.py. Run as a single-file source program:
//   java -cp "<pyspark>/jars/*" HmsLauncher.java PORT DIR
// Derby gets the metastore schema from DataNucleus (datanucleus.schema.autoCreateAll) but not
// the transaction tables that HMS locks live in (HIVE_LOCKS, NEXT_LOCK_ID, ...): Hive's own
// TxnDbUtil.prepDb creates those first, as Hive's and Iceberg's test metastores do.
// The metastore qualifies and mkdirs database and table locations through Hadoop's FileSystem;
// the pyspark jars have no S3A, so s3a:// locations (the suite's S3Proxy warehouse) go to
// S3aStub: every path is a directory that exists. The metastore never reads Iceberg's files
// (tables are EXTERNAL and dropped without deleteData); the engines write them to S3Proxy.
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.txn.TxnDbUtil;
import org.apache.hadoop.util.Progressable;

public class HmsLauncher {
  public static class S3aStub extends FileSystem {
    private URI uri = URI.create("s3a://warehouse");

    @Override public void initialize(URI name, org.apache.hadoop.conf.Configuration conf)
        throws IOException {
      super.initialize(name, conf);
      uri = URI.create(name.getScheme() + "://" + name.getAuthority());
    }
    @Override public String getScheme() { return "s3a"; }
    @Override public URI getUri() { return uri; }
    @Override public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      throw new IOException("S3aStub: no data here: " + f);
    }
    @Override public FSDataOutputStream create(Path f, FsPermission p, boolean o, int b, short r,
        long s, Progressable pr) throws IOException {
      throw new IOException("S3aStub: no data here: " + f);
    }
    @Override public FSDataOutputStream append(Path f, int b, Progressable p) throws IOException {
      throw new IOException("S3aStub: no data here: " + f);
    }
    @Override public boolean rename(Path a, Path b) { return true; }
    @Override public boolean delete(Path f, boolean recursive) { return true; }
    @Override public FileStatus[] listStatus(Path f) { return new FileStatus[0]; }
    @Override public void setWorkingDirectory(Path d) {}
    @Override public Path getWorkingDirectory() { return new Path(uri.toString() + "/"); }
    @Override public boolean mkdirs(Path f, FsPermission p) { return true; }
    @Override public FileStatus getFileStatus(Path f) {
      return new FileStatus(0, true, 1, 0, 0, makeQualified(f));
    }
  }

  public static void main(String[] args) throws Throwable {
    String port = args[0];
    String dir = args[1];
    System.setProperty("hive.async.log.enabled", "false");
    System.setProperty("javax.jdo.option.ConnectionURL",
        "jdbc:derby:;databaseName=" + dir + "/metastore_db;create=true");
    System.setProperty("hive.metastore.schema.verification", "false");
    System.setProperty("datanucleus.schema.autoCreateAll", "true");
    System.setProperty("hive.metastore.warehouse.dir", "file:" + dir + "/warehouse");
    // Locks of writers that died (no heartbeat for hive.txn.timeout) are expired by the
    // metastore's house keeper (AcidHouseKeeperService -> TxnHandler.performTimeOuts ->
    // timeOutLocks; Hive 2.3.9 no longer times locks out inside lock/check_lock), which Hive
    // 2.3 starts only with the compactor initiator on and an ACID transaction manager
    // (with DummyTxnManager it logs "AcidHouseKeeperService not started").
    System.setProperty("hive.support.concurrency", "true");
    System.setProperty("hive.txn.manager", "org.apache.hadoop.hive.ql.lockmgr.DbTxnManager");
    System.setProperty("hive.txn.timeout", System.getProperty("hms.txn.timeout", "300") + "s");
    System.setProperty("hive.compactor.initiator.on", "true");
    System.setProperty("hive.timedout.txn.reaper.start", "1s");
    System.setProperty("hive.timedout.txn.reaper.interval", "2s");
    System.setProperty("derby.stream.error.file", dir + "/derby.log");
    // A restart (the same DIR) finds the transaction tables there already.
    if (!new java.io.File(dir, "txn-tables-created").exists()) {
      TxnDbUtil.prepDb(new HiveConf());
      new java.io.File(dir, "txn-tables-created").createNewFile();
    }
    HiveMetaStore.main(new String[] {"-p", port,
        "--hiveconf", "fs.s3a.impl=" + S3aStub.class.getName(),
        "--hiveconf", "fs.s3a.impl.disable.cache=true"});
  }
}
