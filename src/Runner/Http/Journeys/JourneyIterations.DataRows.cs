using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Runner.Http.Journeys;

sealed partial class JourneyIterations
{
    /// <summary>A data file read once for the run, and where the iterations are in it.</summary>
    sealed class DataRows
    {
        long cursor = -1;

        public DataRows(HttpDataFile file)
        {
            File = file;
            Table = file.Read();
            Columns = Table.Columns.Select((c, i) => (c, i)).ToDictionary(x => x.c, x => x.i, StringComparer.Ordinal);
        }

        public HttpDataFile File { get; }
        public BenchDashboard.Core.Text.DataTable Table { get; }
        public Dictionary<string, int> Columns { get; }
        public bool UsedUp { get; private set; }

        public bool Take(JourneyWorker worker)
        {
            var rows = Table.Rows;
            switch (File.Mode)
            {
                case HttpDataFile.Random:
                    worker.Row = rows[worker.Random.Next(rows.Count)];
                    return true;
                case HttpDataFile.Once:
                    var next = Interlocked.Increment(ref cursor);
                    if (next >= rows.Count)
                    {
                        UsedUp = true;
                        return false;
                    }
                    worker.Row = rows[(int)next];
                    return true;
                default:
                    worker.Row = rows[(int)(Interlocked.Increment(ref cursor) % rows.Count)];
                    return true;
            }
        }
    }
}
