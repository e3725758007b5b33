using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    /// <inheritdoc />
    public partial class RunBenchmarkName : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "BenchmarkName",
                table: "Runs",
                type: "TEXT",
                maxLength: 200,
                nullable: true);

            // Runs already stored say which benchmark they came from, so deleting it later leaves them named.
            migrationBuilder.Sql("UPDATE Runs SET BenchmarkName = (SELECT Name FROM Benchmarks WHERE Benchmarks.Id = Runs.BenchmarkId) WHERE BenchmarkId IS NOT NULL;");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "BenchmarkName",
                table: "Runs");
        }
    }
}
