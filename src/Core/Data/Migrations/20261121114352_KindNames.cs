using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    /// <summary>
    /// Kinds were stored as enum names ("FileSystem"); they are now the kind's API name ("fileSystem"), the one
    /// name a kind has everywhere. The columns keep their type; only the values change.
    /// </summary>
    public partial class KindNames : Migration
    {
        static readonly (string Old, string New)[] Names = [("Http", "http"), ("Cache", "cache"), ("FileSystem", "fileSystem")];

        protected override void Up(MigrationBuilder migrationBuilder)
        {
            foreach (var (old, name) in Names)
                foreach (var table in new[] { "Runs", "Benchmarks" })
                    migrationBuilder.Sql($"UPDATE {table} SET Kind = '{name}' WHERE Kind = '{old}';");
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            foreach (var (old, name) in Names)
                foreach (var table in new[] { "Runs", "Benchmarks" })
                    migrationBuilder.Sql($"UPDATE {table} SET Kind = '{old}' WHERE Kind = '{name}';");
        }
    }
}
