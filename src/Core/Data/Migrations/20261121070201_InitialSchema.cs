using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    public partial class InitialSchema : Migration
    {
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "Benchmarks",
                columns: table => new
                {
                    Id = table.Column<int>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    Name = table.Column<string>(type: "TEXT", maxLength: 200, nullable: false),
                    Kind = table.Column<string>(type: "TEXT", maxLength: 32, nullable: false),
                    ParametersJson = table.Column<string>(type: "TEXT", nullable: false),
                    CronSchedule = table.Column<string>(type: "TEXT", maxLength: 100, nullable: true),
                    Enabled = table.Column<bool>(type: "INTEGER", nullable: false),
                    CreatedUtcMs = table.Column<long>(type: "INTEGER", nullable: false),
                    LastScheduledUtcMs = table.Column<long>(type: "INTEGER", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Benchmarks", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Runs",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    BenchmarkId = table.Column<int>(type: "INTEGER", nullable: true),
                    Kind = table.Column<string>(type: "TEXT", maxLength: 32, nullable: false),
                    ParametersJson = table.Column<string>(type: "TEXT", nullable: false),
                    Status = table.Column<string>(type: "TEXT", maxLength: 32, nullable: false),
                    QueuedUtcMs = table.Column<long>(type: "INTEGER", nullable: false),
                    StartedUtcMs = table.Column<long>(type: "INTEGER", nullable: true),
                    EndedUtcMs = table.Column<long>(type: "INTEGER", nullable: true),
                    HeartbeatUtcMs = table.Column<long>(type: "INTEGER", nullable: true),
                    RunnerName = table.Column<string>(type: "TEXT", maxLength: 200, nullable: true),
                    CancelRequested = table.Column<bool>(type: "INTEGER", nullable: false),
                    CompletedRequests = table.Column<int>(type: "INTEGER", nullable: false),
                    EnvironmentJson = table.Column<string>(type: "TEXT", nullable: true),
                    CachingEvidenceJson = table.Column<string>(type: "TEXT", nullable: true),
                    Error = table.Column<string>(type: "TEXT", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Runs", x => x.Id);
                    table.ForeignKey(
                        name: "FK_Runs_Benchmarks_BenchmarkId",
                        column: x => x.BenchmarkId,
                        principalTable: "Benchmarks",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.SetNull);
                });

            migrationBuilder.CreateTable(
                name: "Samples",
                columns: table => new
                {
                    RunId = table.Column<long>(type: "INTEGER", nullable: false),
                    Index = table.Column<int>(type: "INTEGER", nullable: false),
                    OffsetNs = table.Column<long>(type: "INTEGER", nullable: false),
                    LatencyNs = table.Column<long>(type: "INTEGER", nullable: false),
                    HeadersNs = table.Column<long>(type: "INTEGER", nullable: true),
                    ConnectNs = table.Column<long>(type: "INTEGER", nullable: true),
                    StatusCode = table.Column<int>(type: "INTEGER", nullable: true),
                    Bytes = table.Column<long>(type: "INTEGER", nullable: false),
                    Error = table.Column<int>(type: "INTEGER", nullable: false),
                    IsWarmup = table.Column<bool>(type: "INTEGER", nullable: false),
                    Connection = table.Column<int>(type: "INTEGER", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Samples", x => new { x.RunId, x.Index });
                    table.ForeignKey(
                        name: "FK_Samples_Runs_RunId",
                        column: x => x.RunId,
                        principalTable: "Runs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateIndex(
                name: "IX_Benchmarks_Name",
                table: "Benchmarks",
                column: "Name",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "IX_Runs_BenchmarkId_Id",
                table: "Runs",
                columns: new[] { "BenchmarkId", "Id" });

            migrationBuilder.CreateIndex(
                name: "IX_Runs_Status",
                table: "Runs",
                column: "Status");
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "Samples");

            migrationBuilder.DropTable(
                name: "Runs");

            migrationBuilder.DropTable(
                name: "Benchmarks");
        }
    }
}
