const path = require('path');
const { task, src, dest } = require('gulp');

// tsc compiles the code; n8n also needs the icons next to it in dist/.
task('build:icons', copyIcons);

function copyIcons() {
	return src(path.resolve('icons', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'icons')),
	);
}
