using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.PostgreSql.Migrations
{
    /// <inheritdoc />
    public partial class RunHistoryJudgement : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<string>(
                name: "HistoryJson",
                table: "Runs",
                type: "text",
                nullable: true);

            migrationBuilder.AddColumn<int>(
                name: "HistoryVersion",
                table: "Runs",
                type: "integer",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "HistoryJson",
                table: "Runs");

            migrationBuilder.DropColumn(
                name: "HistoryVersion",
                table: "Runs");
        }
    }
}
