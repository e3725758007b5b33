using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace BenchDashboard.Core.Data.Migrations
{
    public partial class BenchmarkAgents : Migration
    {
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<int>(
                name: "Agents",
                table: "Benchmarks",
                type: "INTEGER",
                nullable: true);
        }

        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "Agents",
                table: "Benchmarks");
        }
    }
}
